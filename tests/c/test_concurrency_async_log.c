/* The first asynchronous user log callback registered while other threads are logging: every
 * thread must keep making progress. Registering the first HIPDNN_LOG_CALLBACK_ASYNC callback is
 * a one-time event per process, so the test runs itself as ROUNDS child processes; in each, 4
 * threads create and destroy descriptors with the level at INFO (every call logs) while the
 * main thread registers an async callback, then every thread must advance again within a
 * deadline. A child whose threads stop is reported as a hang and fails the test (the rounds
 * stop at the first hang). */
#define _GNU_SOURCE
#include <hipdnn_backend.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

#define ROUNDS 20
#define THREADS 4
#define CHILD_DEADLINE_S 4

static volatile int stop;
static long progress[THREADS];
static long delivered;
static int cookie;

static void cb(hipdnnUserLogCallbackHandle_t u, hipdnnSeverity_t s, const char* m) {
    (void)u, (void)s, (void)m;
    __atomic_fetch_add(&delivered, 1, __ATOMIC_SEQ_CST);
}

static void* logger(void* arg) {
    long* p = (long*)arg;
    while (!stop) {
        hipdnnBackendDescriptor_t d = NULL;
        if (hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d) == HIPDNN_STATUS_SUCCESS)
            hipdnnBackendDestroyDescriptor(d);
        __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST);
    }
    return NULL;
}

static void on_alarm(int sig) {
    static const char msg[] = "child: a logging thread made no progress after the first async callback was "
                              "registered (blocked inside the library)\n";
    (void)sig;
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(3);
    _exit(3);
}

static long least(void) {
    long m = -1;
    for (int i = 0; i < THREADS; i++) {
        long v = __atomic_load_n(&progress[i], __ATOMIC_SEQ_CST);
        if (m < 0 || v < m)
            m = v;
    }
    return m;
}

static int child(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    alarm(CHILD_DEADLINE_S);
    hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, logger, &progress[i]);
    while (least() < 200)
        usleep(100);
    if (hipdnnSetUserLogCallback_ext(cb, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_ASYNC, &cookie) != HIPDNN_STATUS_SUCCESS) {
        fprintf(stderr, "child: registering the async callback failed\n");
        return 1;
    }
    long base = least();
    while (least() < base + 2000)
        usleep(100); /* the alarm ends a child whose threads stopped */
    stop = 1;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    if (hipdnnSetUserLogCallback_ext(cb, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, &cookie) != HIPDNN_STATUS_SUCCESS) {
        fprintf(stderr, "child: removing the async callback failed\n");
        return 1;
    }
    hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF);
    alarm(0);
    return delivered > 0 ? 0 : (fprintf(stderr, "child: the async callback was never called\n"), 1);
}

int main(int argc, char** argv) {
    if (argc == 2 && strcmp(argv[1], "--child") == 0)
        return child();
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return perror("readlink"), 1;
    self[n] = 0;
    int hangs = 0, other = 0, rounds = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int r = 0; r < ROUNDS && hangs == 0; r++, rounds++) {
        char* args[] = {argv[0], (char*)"--child", NULL};
        pid_t pid;
        int status = 0;
        if (posix_spawn(&pid, self, NULL, NULL, args, environ) != 0)
            return perror("posix_spawn"), 1;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
            hangs++;
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            other++;
            fprintf(stderr, "round %d: child ended with status %#x\n", r, status);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("test_concurrency_async_log: %d rounds in %.1f s, %d hung, %d failed otherwise\n", rounds,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9, hangs, other);
    if (hangs)
        fprintf(stderr,
                "FAIL: in %d of %d processes a thread logging at INFO blocked forever when the first "
                "HIPDNN_LOG_CALLBACK_ASYNC callback was registered\n",
                hangs, rounds);
    return hangs || other ? 1 : 0;
}
