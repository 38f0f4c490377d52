// SPDX-License-Identifier: MIT
/*
 * libcall_ctor_dlopen.c - a library constructor that calls dlopen()
 * while another thread waits in dlopen(): a thread has iconv load a
 * gconv module ($GCONV_PATH: libcall_gconv_ctor.c), whose constructor
 * runs under the loader's lock; once it has started, the main thread
 * dlopen()s a library.  Without fdr the main thread waits for the
 * loader's lock and both finish; a lock of fdr's taken before the
 * loader's (libfdr-plt.so's dlopen) made them wait for each other.
 * Prints "done" when both returned.
 */
#include <dlfcn.h>
#include <iconv.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

volatile int libcall_ctor_started;

static void *convert(void *arg)
{
	(void)arg;
	iconv_open("FDRTEST//", "UTF-8");	/* the module loads, whatever it returns */
	return NULL;
}

int main(void)
{
	pthread_t t;
	void *h;

	if (pthread_create(&t, NULL, convert, NULL))
		return 1;
	for (int i = 0; i < 5000 && !libcall_ctor_started; i++)
		usleep(1000);
	h = dlopen("libm.so.6", RTLD_NOW);
	pthread_join(t, NULL);
	printf("done%s\n", libcall_ctor_started ? "" : " (the constructor never ran)");
	return h ? 0 : 2;
}
