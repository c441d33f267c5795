/* The baseline receive loop for the trace-collector stress benchmark: bind a SOCK_DGRAM Unix socket, raise
 * SO_RCVBUF like the harness does, count datagrams and bytes until the socket has been idle for IDLE_MS after
 * the first datagram. Prints "ready" once bound, then "received N bytes B seconds S".
 *   cc -O2 -o uds-recv uds-recv.c && ./uds-recv /tmp/x.sock [IDLE_MS] */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s SOCKET_PATH [IDLE_MS]\n", argv[0]);
		return 2;
	}
	int idle_ms = argc > 2 ? atoi(argv[2]) : 2000;
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	strncpy(addr.sun_path, argv[1], sizeof(addr.sun_path) - 1);
	unlink(argv[1]);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		perror("bind");
		return 1;
	}
	int rcvbuf = 8 * 1024 * 1024;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	printf("ready\n");
	fflush(stdout);

	static char buf[64 * 1024];
	unsigned long long count = 0, bytes = 0;
	double first = 0, last = 0;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	for (;;) {
		int r = poll(&p, 1, count ? idle_ms : -1);
		if (r == 0)
			break;
		ssize_t n;
		while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) >= 0) {
			if (!count)
				first = now();
			count++;
			bytes += n;
		}
		last = now();
	}
	printf("received %llu bytes %llu seconds %.3f\n", count, bytes, last - first);
	unlink(argv[1]);
	return 0;
}
