/* Demangling as perf 6.1 on Debian does it: libiberty's C++ demangler
 * without parameters or qualifiers, then Rust legacy symbols (a C++-looking
 * path ending in "::h<16 hex>") get their hash dropped and $..$ escapes
 * decoded. */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "symbols/sym_int.h"

static bool is_rust_legacy(const char *s)
{
	size_t n = strlen(s);
	if (n < 19 || memcmp(s + n - 19, "::h", 3))
		return false;
	for (size_t i = n - 16; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static const struct { const char *esc; char c; } rust_esc[] = {
	{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' }, { "$LT$", '<' }, { "$GT$", '>' },
	{ "$LP$", '(' }, { "$RP$", ')' }, { "$C$", ',' }, { "$u7e$", '~' }, { "$u20$", ' ' },
	{ "$u27$", '\'' }, { "$u5b$", '[' }, { "$u5d$", ']' }, { "$u7b$", '{' }, { "$u7d$", '}' },
	{ "$u3b$", ';' }, { "$u2b$", '+' }, { "$u22$", '"' },
};

/* In place: drop the hash, decode escapes, ".." -> "::". */
static void rust_fix(char *s)
{
	size_t n = strlen(s) - 19;
	s[n] = 0;
	char *w = s;
	for (const char *r = s; *r;) {
		if (*r == '$') {
			bool done = false;
			for (size_t i = 0; i < sizeof(rust_esc) / sizeof(rust_esc[0]); i++) {
				size_t l = strlen(rust_esc[i].esc);
				if (!strncmp(r, rust_esc[i].esc, l)) {
					*w++ = rust_esc[i].c;
					r += l;
					done = true;
					break;
				}
			}
			if (done)
				continue;
		} else if (r[0] == '.' && r[1] == '.') {
			*w++ = ':';
			*w++ = ':';
			r += 2;
			continue;
		}
		*w++ = *r++;
	}
	*w = 0;
}

char *sym_demangle(const char *name)
{
	char *d = cplus_demangle(name, DMGL_NO_OPTS);
	if (d && is_rust_legacy(d))
		rust_fix(d);
	return d;
}

HWPROF_API char *hwprof_demangle(const char *name)
{
	return sym_demangle(name);
}
