/* dlopen of a library mapped after the start (its MMAP arrives late) and
 * calls through the PLT and dlsym pointers. */
#include <dlfcn.h>
#include <math.h>

int main(void)
{
	void *h = dlopen("libm.so.6", RTLD_NOW);
	if (!h)
		return 2;
	double (*c)(double) = (double (*)(double))dlsym(h, "cos");
	volatile double acc = 0;
	for (int i = 0; i < 50; i++)
		acc += c(i * 0.1);
	return acc > 1e9;
}
