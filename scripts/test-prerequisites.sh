# Sourced by scripts/test.sh: makes a fresh Debian machine ready for the tests. Installs Debian's
# Chromium (the browser tests never download a browser), a PostgreSQL server and PgBouncer (the
# tests start their own, in front of that server) if missing, starts the server, and exports
# TEST_DATABASE_URL for the PostgreSQL suites.

apt_install() {
  [ -n "${APT_UPDATED:-}" ] || { apt-get update -qq; APT_UPDATED=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

if [ "$(id -u)" = 0 ]; then
  command -v chromium >/dev/null || apt_install chromium
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  [ -x /usr/sbin/pgbouncer ] || apt_install pgbouncer
else
  command -v chromium >/dev/null ||
    echo "The browser tests need Debian's chromium: run \`sudo apt-get install chromium\`." >&2
  [ -x /usr/sbin/pgbouncer ] ||
    echo "The pooler tests need Debian's pgbouncer: run \`sudo apt-get install pgbouncer\`." >&2
fi

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432 && command -v pg_ctlcluster >/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start || true
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
  if psql -h 127.0.0.1 -U postgres -d test -c 'select 1' >/dev/null 2>&1; then
    export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test
  elif [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
    # A stock Debian server: give the postgres role a password the tests can use over TCP.
    su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >/dev/null
    export TEST_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres
  fi
fi
