/* Replays a fuzz corpus without libFuzzer: feeds every regular file of the
 * directory given as argv[1] to LLVMFuzzerTestOneInput. An empty or missing
 * directory is an error, so a lost corpus cannot pass silently. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	DIR *d;
	struct dirent *e;
	int n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	d = opendir(argv[1]);
	if (!d) {
		perror(argv[1]);
		return 1;
	}
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		FILE *f;
		uint8_t *buf;

		snprintf(path, sizeof(path), "%s/%s", argv[1], e->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		f = fopen(path, "rb");
		buf = malloc(st.st_size ? (size_t)st.st_size : 1);
		if (!f || !buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
			fprintf(stderr, "%s: cannot read\n", path);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
		free(buf);
		n++;
	}
	closedir(d);
	if (n == 0) {
		fprintf(stderr, "%s: empty corpus\n", argv[1]);
		return 1;
	}
	printf("%d inputs replayed\n", n);
	return 0;
}
