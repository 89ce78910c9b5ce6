/* Replays a fuzz target's corpus without libFuzzer: every regular file in
 * the directory given as argv[1] goes through LLVMFuzzerTestOneInput once.
 * `make check` runs this for each fuzz/fuzz_*.c; `make fuzz` links the
 * same targets with libFuzzer instead. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	DIR *dir = opendir(argv[1]);
	if (!dir) {
		fprintf(stderr, "%s: cannot open corpus directory %s\n", argv[0], argv[1]);
		return 1;
	}
	struct dirent *de;
	int n = 0;
	while ((de = readdir(dir))) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", argv[1], de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		uint8_t *buf = malloc(st.st_size ? (size_t)st.st_size : 1);
		size_t got = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
		fclose(f);
		if (!buf)
			return 1;
		LLVMFuzzerTestOneInput(buf, got);
		free(buf);
		n++;
	}
	closedir(dir);
	if (n == 0) {
		fprintf(stderr, "%s: corpus %s is empty\n", argv[0], argv[1]);
		return 1;
	}
	printf("%d inputs replayed\n", n);
	return 0;
}
