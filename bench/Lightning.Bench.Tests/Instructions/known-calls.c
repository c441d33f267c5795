/* A program with a known call structure, run under callgrind for the parser's tests:
   main calls a() 3 times and b() once; a() calls c() once per call; b() calls c() twice. */
static volatile long sink;

__attribute__((noinline)) static void c(void) { for (int i = 0; i < 100; i++) sink += i; }

__attribute__((noinline)) static void a(void) { for (int i = 0; i < 1000; i++) sink += i; c(); }

__attribute__((noinline)) static void b(void) { for (int i = 0; i < 5000; i++) sink ^= i; c(); c(); }

int main(void)
{
    for (int i = 0; i < 3; i++) a();
    b();
    return 0;
}
