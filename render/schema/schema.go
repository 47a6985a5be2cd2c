// Package schema holds the JSON Schemas of qoslint's JSON outputs, so users
// and tests can validate them: report.schema.json (qoslint.report/v1) and the
// subset of SARIF 2.1.0 qoslint writes.
package schema

import "embed"

// FS holds the schema files.
//
//go:embed *.schema.json
var FS embed.FS

// Names of the schema files.
const (
	Report = "report.schema.json"
	SARIF  = "sarif-2.1.0-subset.schema.json"
)
