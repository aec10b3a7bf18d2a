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
