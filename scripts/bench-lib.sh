# Helpers the bench scripts share; `source` it after setting WORK.

log() { printf '== %s\n' "$*" >&2; }

# The median of the numbers on standard input, one per line.
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# The lines of an nginx `http {}` block every bench needs: JSON served as such, and every
# temporary path inside $WORK (nginx runs unprivileged from there).
nginx_http_common() {
    cat <<NGINX
    types { application/json json; }
    default_type application/json;
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
NGINX
}

# A fresh $WORK (www/ for nginx, tmp/ for its temporary files), and the EXIT trap that stops
# every process in PIDS and the nginx of $WORK/nginx.pid.
PIDS=()
bench_setup() {
    rm -rf "$WORK"; mkdir -p "$WORK/www" "$WORK/tmp"; chmod 755 "$WORK" "$WORK/www"
    trap bench_cleanup EXIT
}
bench_cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    wait 2>/dev/null || true
}

# nginx serving $WORK/www as static files on 127.0.0.1:$1, no access log; $2: more directives
# for the server block.
start_static_nginx() {
    cat >"$WORK/nginx.conf" <<NGINX
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
$(nginx_http_common)
    server { listen 127.0.0.1:$1; root $WORK/www; ${2:-} }
}
NGINX
    nginx -c "$WORK/nginx.conf" -p "$WORK" -g 'daemon on;' 2>/dev/null
}

# $1/small.json ($2 items) and $1/large.json ($3 items) of about 80 bytes an item: id, name,
# category, price, inStock.
write_item_lists() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
def items(n):
    return [json.dumps({"id": i, "name": "Item %07d" % i, "category": ["tools", "garden", "kitchen", "toys"][i % 4],
                        "price": round(1 + (i * 37 % 1000) / 10, 2), "inStock": i % 3 != 0}, separators=(",", ":"))
            for i in range(n)]
open(sys.argv[1] + "/small.json", "w").write("[" + ",".join(items(int(sys.argv[2]))) + "]")
open(sys.argv[1] + "/large.json", "w").write("[" + ",".join(items(int(sys.argv[3]))) + "]")
PY
}
