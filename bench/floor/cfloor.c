/* bench/floor/cfloor.c — the C twin of gofloor: N threads, each on its own
 * PostgreSQL session, run sysbench's point select (SELECT c FROM sbtestT
 * WHERE id=$1, T uniform, id from sysbench's default "special"
 * distribution, as sysbench and benchpress draw it) as Bind/Execute/Sync on four prepared
 * statements, with a blocking read() and write() per round trip, and record
 * every latency. libpq only connects and prepares; the loop speaks the
 * protocol itself, byte for byte what gofloor sends.
 * Usage: cfloor CONNINFO THREADS SECONDS -> "tps=... p50=... p95=... p99=... p999=..." (ms) */
#include <arpa/inet.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXT 256
#define MAXL 4000000
static double dur;
static int fds[MAXT];
static long *lat[MAXT], nl[MAXT];

static long now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* xorshift64: each thread's own generator. */
static uint64_t xs(uint64_t *s) {
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double u01(uint64_t *s) { return (double)(xs(s) >> 11) * (1.0 / 9007199254740992.0); }

/* special is sysbench's default id distribution (sb_rand.c with
 * rand-spec-iter 12, rand-spec-pct 1, rand-spec-res 75; benchpress's
 * internal/randgen SBDist.special): a quarter of the draws are the mean of
 * 12 uniforms over [a, b], three quarters fall in the central 1 %. */
static int special(uint64_t *s, int a, int b) {
	double t = b - a, rnd = u01(s);
	if (rnd * t * 4.0 < t) {
		double sum = 0;
		for (int i = 0; i < 12; i++) sum += u01(s);
		return a + (int)(sum * t / 12.0);
	}
	return a + (int)(rnd * (t * 0.01 + 1) + t / 2 - t * 0.005);
}

static int msg(char *b, char type, const char *body, int n) {
	uint32_t l = htonl(n + 4);
	b[0] = type;
	memcpy(b + 1, &l, 4);
	memcpy(b + 5, body, n);
	return n + 5;
}

/* read_ready reads replies until ReadyForQuery. */
static void read_ready(int fd, char *buf) {
	int have = 0;
	for (;;) {
		int n = read(fd, buf + have, 8192 - have);
		if (n <= 0) { perror("read"); exit(1); }
		have += n;
		int off = 0;
		while (off + 5 <= have) {
			uint32_t l;
			memcpy(&l, buf + off + 1, 4);
			l = ntohl(l);
			if (off + 1 + (int)l > have) break;
			if (buf[off] == 'Z') return;
			if (buf[off] == 'E') { fprintf(stderr, "server error\n"); exit(1); }
			off += 1 + l;
		}
		memmove(buf, buf + off, have - off);
		have -= off;
	}
}

static void *run(void *arg) {
	int i = (int)(long)arg, fd = fds[i];
	char buf[8192], out[256], body[128], ids[16];
	uint64_t s = (uint64_t)i * 7919 + 88172645463325252ULL;
	long end = now() + (long)(dur * 1e9), k = 0;
	for (;;) {
		long t0 = now();
		if (t0 > end) break;
		int id = special(&s, 1, 100000);
		int tb = (int)(xs(&s) % 4) + 1;
		int il = sprintf(ids, "%d", id), bl = 0;
		body[bl++] = 0; /* unnamed portal */
		bl += sprintf(body + bl, "s%d", tb) + 1;
		body[bl++] = 0; body[bl++] = 0; /* no parameter format codes: text */
		body[bl++] = 0; body[bl++] = 1; /* one parameter */
		uint32_t x = htonl(il);
		memcpy(body + bl, &x, 4);
		bl += 4;
		memcpy(body + bl, ids, il);
		bl += il;
		body[bl++] = 0; body[bl++] = 0; /* results in text */
		int o = msg(out, 'B', body, bl);
		char ex[5] = {0, 0, 0, 0, 0};
		o += msg(out + o, 'E', ex, 5);
		o += msg(out + o, 'S', "", 0);
		if (write(fd, out, o) != o) { perror("write"); exit(1); }
		read_ready(fd, buf);
		if (k < MAXL) lat[i][k++] = now() - t0;
	}
	nl[i] = k;
	return 0;
}

static int cmp(const void *a, const void *b) {
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
	if (argc != 4) { fprintf(stderr, "usage: cfloor CONNINFO THREADS SECONDS\n"); return 2; }
	int n = atoi(argv[2]);
	dur = atof(argv[3]);
	if (n < 1 || n > MAXT) { fprintf(stderr, "threads: 1..%d\n", MAXT); return 2; }
	for (int i = 0; i < n; i++) {
		PGconn *c = PQconnectdb(argv[1]);
		if (PQstatus(c) != CONNECTION_OK) { fprintf(stderr, "%s", PQerrorMessage(c)); return 1; }
		if (PQgetssl(c)) { fprintf(stderr, "cfloor speaks plain TCP: add sslmode=disable\n"); return 2; }
		for (int t = 1; t <= 4; t++) {
			char name[8], q[64];
			sprintf(name, "s%d", t);
			sprintf(q, "SELECT c FROM sbtest%d WHERE id=$1", t);
			PQclear(PQprepare(c, name, q, 1, NULL));
		}
		fds[i] = PQsocket(c);
		fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) & ~O_NONBLOCK);
		lat[i] = malloc(MAXL * sizeof(long));
	}
	pthread_t th[MAXT];
	long st = now();
	for (long i = 0; i < n; i++) pthread_create(&th[i], 0, run, (void *)i);
	for (int i = 0; i < n; i++) pthread_join(th[i], 0);
	double el = (now() - st) / 1e9;
	long tot = 0, p = 0;
	for (int i = 0; i < n; i++) tot += nl[i];
	long *all = malloc(tot * sizeof(long));
	for (int i = 0; i < n; i++) { memcpy(all + p, lat[i], nl[i] * sizeof(long)); p += nl[i]; }
	qsort(all, tot, sizeof(long), cmp);
#define Q(f) (all[(long)((f) * (tot - 1))] / 1e6)
	printf("tps=%.0f p50=%.3f p95=%.3f p99=%.3f p999=%.3f\n", tot / el, Q(.5), Q(.95), Q(.99), Q(.999));
	return 0;
}
