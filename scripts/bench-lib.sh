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

# nginx serving $WORK/www on 127.0.0.1:$1 with an access log ($WORK/access.log: the upstream
# fetches of a run are counted there), and under /slow/ the same files sent at $2 a second (an
# upstream that takes a while, so concurrent cold requests overlap).
start_counting_nginx() {
    cat >"$WORK/nginx.conf" <<NGINX
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log $WORK/access.log;
$(nginx_http_common)
    server {
        listen 127.0.0.1:$1;
        root $WORK/www;
        location /slow/ { alias $WORK/www/; limit_rate $2; }
    }
}
NGINX
    nginx -c "$WORK/nginx.conf" -p "$WORK" -g 'daemon on;' 2>/dev/null
}

# Stops the folio processes in PIDS.
stop_folios() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait "${PIDS[@]}" 2>/dev/null || true
    PIDS=()
}

# Milliseconds until the first 25-item page of /objects on 127.0.0.1:$1 is answered.
first_page_ms() {
    curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$1/objects?pageSize=25" | awk '{printf "%.1f\n", $1*1000}'
}

# Rounds of `wrk -t1 -c32 -d$DURATION` on the first 25-item page of /objects, the ports given
# taking turns ($ROUNDS rounds, after one request each); prints each port's median requests/s,
# in the order given, on one line.
cached_page_medians() {
    local -A rps
    local port round rate
    for port in "$@"; do first_page_ms "$port" >/dev/null; done
    for round in $(seq "$ROUNDS"); do
        for port in "$@"; do
            rate=$(wrk -t1 -c32 -d"$DURATION" "http://127.0.0.1:$port/objects?pageSize=25" | awk '/Requests\/sec/ {print $2}')
            rps[$port]+="$rate "
            log "round $round port $port: $rate req/s"
        done
    done
    for port in "$@"; do printf '%s ' "$(echo ${rps[$port]} | tr ' ' '\n' | median)"; done
    echo
}
