package hostfiles

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// ncclBuf is the size of setEnvFile's envVar and envValue buffers
// (NVIDIA/nccl src/misc/param.cc: `char envVar[1024]; char envValue[1024];`):
// names and values longer than ncclBuf-1 bytes are cut.
const ncclBuf = 1024

// maxNCCLLine bounds a line. NCCL itself reads lines of any length (getline)
// and keeps 1023 bytes; a line this long means the file is not an nccl.conf.
const maxNCCLLine = 64 << 10

// ParseNCCLConf reads an nccl.conf the way NCCL does, and notes every line
// that NCCL reads differently from how an administrator would read it.
//
// NCCL's reader is setEnvFile in NVIDIA/nccl src/misc/param.cc (older
// releases had the same loop in src/include/param.h, without the '#' test):
//
//	while ((read = getline(&line, &n, file)) != -1) {
//	  if (line[0] == '#') continue;
//	  if (line[read-1] == '\n') line[read-1] = '\0';
//	  int s=0; // Env Var Size
//	  while (line[s] != '\0' && line[s] != '=') s++;
//	  if (line[s] == '\0') continue;
//	  strncpy(envVar, line, std::min(1023,s));
//	  envVar[std::min(1023,s)] = '\0';
//	  s++;
//	  strncpy(envValue, line+s, 1023);
//	  envValue[1023]='\0';
//	  ncclOsSetEnv(envVar, envValue);
//
// and ncclOsSetEnv is `setenv(name, value, 0)` on Linux (src/os/linux.cc).
// So: only a '#' in column 1 starts a comment; a line without '=' is
// skipped; the name is everything before the first '=' and the value
// everything after it, with no trimming or unquoting (a CR of a CRLF line
// end stays in the value); both are cut to 1023 bytes; setenv rejects an
// empty name; and because setenv does not overwrite, the first line that
// sets a name wins, the process environment beats every file, and
// initEnvFunc reads $NCCL_CONF_FILE (2.23+) or else ~/.nccl.conf before
// /etc/nccl.conf, so /etc/nccl.conf has the lowest priority. (Recent
// releases read variables back through ncclEnvPluginGetEnv, an env-plugin
// hook that a site may replace.)
//
// A NUL byte (not a text file; C would cut the line there) or a line longer
// than 64 KiB is a *source.Error. Everything else NCCL accepts or skips
// silently, so it is not an error here either.
func ParseNCCLConf(file string, data []byte) (*NCCLConf, error) {
	lines, err := ncclLines(file, data)
	if err != nil {
		return nil, err
	}
	conf := &NCCLConf{File: file, Vars: map[string]NCCLVar{}}
	var unset []int // notes whose message ends with where Key really comes from
	for i, raw := range lines {
		n := i + 1
		nv := ncclRead(raw)
		if nv.sets {
			if _, dup := conf.Vars[nv.name]; !dup {
				conf.Vars[nv.name] = NCCLVar{Value: nv.value, Line: n}
			}
		}
		for _, note := range ncclNotes(raw, n, nv, conf.Vars) {
			if note.keyElsewhere {
				unset = append(unset, len(conf.Notes))
			}
			conf.Notes = append(conf.Notes, NCCLNote{Line: n, Key: note.key, Msg: note.msg})
		}
	}
	// A later line may still set the variable a misspelt line meant, so
	// say where it comes from only once every line is read.
	for _, i := range unset {
		note := &conf.Notes[i]
		if v, ok := conf.Vars[note.Key]; ok {
			note.Msg += "; " + note.Key + " comes from line " + strconv.Itoa(v.Line)
		} else {
			note.Msg += "; this file does not set " + note.Key
		}
	}
	return conf, nil
}

// ncclLines splits data as getline does: at '\n' only, so a CR stays in the
// line. Index i is line i+1.
func ncclLines(file string, data []byte) ([]string, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, source.Errorf(file, lineOf(data, i), "NUL byte: not a text file (NCCL would stop reading the line there)")
	}
	if len(data) == 0 {
		return nil, nil
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range lines {
		if len(l) > maxNCCLLine {
			return nil, source.Errorf(file, i+1, "line is %d bytes long: not an nccl.conf", len(l))
		}
	}
	return lines, nil
}

// ncclVar is one line as setEnvFile reads it.
type ncclVar struct {
	sets        bool   // setenv is called and can succeed
	name, value string // cut to 1023 bytes
	nameCut     bool
	valueCut    bool
}

func ncclRead(raw string) ncclVar {
	if raw != "" && raw[0] == '#' {
		return ncclVar{}
	}
	eq := strings.IndexByte(raw, '=')
	if eq < 0 {
		return ncclVar{}
	}
	v := ncclVar{name: raw[:eq], value: raw[eq+1:]}
	if len(v.name) > ncclBuf-1 {
		v.name, v.nameCut = v.name[:ncclBuf-1], true
	}
	if len(v.value) > ncclBuf-1 {
		v.value, v.valueCut = v.value[:ncclBuf-1], true
	}
	// setenv(3) fails with EINVAL on an empty name; setEnvFile ignores
	// its result.
	v.sets = v.name != ""
	return v
}
