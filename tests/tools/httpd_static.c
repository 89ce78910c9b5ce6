/* A minimal static file server for browser tests: serves the files under
 * DIR on 127.0.0.1 only, GET requests, one connection at a time, and exits
 * by itself after SECONDS. Prints the port it listens on (ephemeral) and
 * then daemon-free runs in the foreground; the test starts it with &.
 *   httpd_static DIR SECONDS */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *mime(const char *path)
{
	static const struct { const char *ext, *type; } t[] = {
		{ ".html", "text/html; charset=utf-8" }, { ".js", "text/javascript" },
		{ ".css", "text/css" }, { ".json", "application/json" }, { ".svg", "image/svg+xml" },
		{ ".wasm", "application/wasm" }, { ".png", "image/png" }, { ".woff2", "font/woff2" },
		{ ".ico", "image/x-icon" }, { ".txt", "text/plain" },
	};
	const char *dot = strrchr(path, '.');
	for (size_t i = 0; dot && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(dot, t[i].ext))
			return t[i].type;
	return "application/octet-stream";
}

static void reply(int c, const char *dir, char *req)
{
	char path[4096], *p = req + 4, *end;
	if (strncmp(req, "GET ", 4) || !(end = strchr(p, ' '))) {
		dprintf(c, "HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
		return;
	}
	*end = 0;
	char *q = strpbrk(p, "?#");
	if (q)
		*q = 0;
	if (strstr(p, "..") || p[0] != '/') {
		dprintf(c, "HTTP/1.0 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
		return;
	}
	if (strlen(dir) + strlen(p) + 16 > sizeof(path)) {
		dprintf(c, "HTTP/1.0 414 URI Too Long\r\nContent-Length: 0\r\n\r\n");
		return;
	}
	strcpy(path, dir);
	strcat(path, p);
	if (p[strlen(p) - 1] == '/')
		strcat(path, "index.html");
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		dprintf(c, "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
		return;
	}
	dprintf(c, "HTTP/1.0 200 OK\r\nContent-Type: %s\r\nContent-Length: %lld\r\nConnection: close\r\n\r\n",
		mime(path), (long long)st.st_size);
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(c, buf, (size_t)n) != n)
			break;
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: httpd_static DIR SECONDS\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t al = sizeof(a);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 16) ||
	    getsockname(s, (struct sockaddr *)&a, &al)) {
		perror("httpd_static");
		return 1;
	}
	printf("%u\n", ntohs(a.sin_port));
	fflush(stdout);
	time_t stop = time(NULL) + atoi(argv[2]);
	while (time(NULL) < stop) {
		struct pollfd pf = { .fd = s, .events = POLLIN };
		if (poll(&pf, 1, 200) <= 0)
			continue;
		int c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		struct timeval tv = { 2, 0 };
		setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		char req[8192];
		size_t n = 0;
		ssize_t k;
		while (n < sizeof(req) - 1 && (k = read(c, req + n, sizeof(req) - 1 - n)) > 0) {
			n += (size_t)k;
			req[n] = 0;
			if (strstr(req, "\r\n\r\n"))
				break;
		}
		req[n] = 0;
		if (n)
			reply(c, argv[1], req);
		close(c);
	}
	close(s);
	return 0;
}
