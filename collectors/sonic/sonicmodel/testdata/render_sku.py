# Renders an NVIDIA SONiC SKU (sonic-net/sonic-buildimage device/mellanox/<platform>/<SKU>/)
# for the sn*.json files here; see SOURCE.md. Not run by the tests.
# python3 render_sku.py <folder with the SKU templates> <ports> <DEVICE_METADATA type> <hwsku> <platform> [speed]
# Renders an NVIDIA SONiC SKU's qos.json.j2 and buffers_dynamic.json.j2 as
# sonic-cfggen would (its sort_by_port_index and template_exists), over the
# SKU's port_config.ini, for a handful of ports with neighbours.
import json, sys, jinja2, collections
sku_dir, ports_n, role = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ports = collections.OrderedDict()
for line in open(sku_dir + "/port_config.ini"):
    if line.startswith("#") or not line.strip():
        continue
    f = line.split()
    ports[f[0]] = {"lanes": f[1], "alias": f[2], "index": f[3], "speed": f[4] if len(f) > 4 else (sys.argv[6] if len(sys.argv) > 6 else "400000"), "admin_status": "up", "mtu": "9100"}
names = list(ports)[:ports_n]
PORT = {n: ports[n] for n in names}
meta = {"localhost": {"hwsku": sys.argv[4], "platform": sys.argv[5], "type": role, "buffer_model": "dynamic", "hostname": "sw"}}
# half the ports downlink to servers, half uplink
DEVICE_NEIGHBOR = {n: {"name": ("srv%d" % i) if i < len(names)//2 else ("up%d" % i), "port": "eth0"} for i, n in enumerate(names)}
up = {"ToRRouter": "LeafRouter", "LeafRouter": "SpineRouter", "SpineRouter": "SpineRouter"}[role]
down = {"ToRRouter": "Server", "LeafRouter": "ToRRouter", "SpineRouter": "LeafRouter"}[role]
DEVICE_NEIGHBOR_METADATA = {}
for i, n in enumerate(names):
    DEVICE_NEIGHBOR_METADATA[DEVICE_NEIGHBOR[n]["name"]] = {"type": down if i < len(names)//2 else up}
def sort_by_port_index(value):
    if value and isinstance(value, list):
        value.sort(key=lambda k: int(k[8:]) if "BP" not in k else int(k[11:]) + 1024)
loader = jinja2.FileSystemLoader(sku_dir)
env = jinja2.Environment(loader=loader, trim_blocks=True, extensions=["jinja2.ext.do"])
env.filters["sort_by_port_index"] = sort_by_port_index
def template_exists(name):
    try:
        loader.get_source(env, name); return True
    except jinja2.exceptions.TemplateNotFound:
        return False
env.globals["template_exists"] = template_exists
ctx = {"PORT": PORT, "DEVICE_METADATA": meta, "DEVICE_NEIGHBOR": DEVICE_NEIGHBOR, "DEVICE_NEIGHBOR_METADATA": DEVICE_NEIGHBOR_METADATA}
out = {}
for t in ["qos.json.j2", "buffers_dynamic.json.j2"]:
    txt = env.get_template(t).render(**ctx)
    part = json.loads(txt)
    out.update(part)
out["PORT"] = PORT
out["DEVICE_METADATA"] = meta
print(json.dumps(out, indent=4, sort_keys=True))
