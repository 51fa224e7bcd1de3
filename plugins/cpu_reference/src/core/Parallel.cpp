#include "core/Parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace hipdnngo::cpu_reference
{
namespace
{

int resolveThreadCount()
{
    if(const char* env = std::getenv("HIPDNN_CPU_REFERENCE_THREADS"))
    {
        char* end = nullptr;
        const long v = std::strtol(env, &end, 10);
        if(end != env && *end == '\0' && v > 0)
        {
            return static_cast<int>(std::min<long>(v, 1024));
        }
    }
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : static_cast<int>(hw);
}

// insidePoolTask marks threads currently running a chunk, so nested parallelFor runs inline.
thread_local bool insidePoolTask = false;

class ThreadPool
{
public:
    explicit ThreadPool(int workers)
    {
        for(int i = 0; i < workers; ++i)
        {
            threads_.emplace_back([this] { workerLoop(); });
        }
    }

    ~ThreadPool()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for(auto& t : threads_)
        {
            t.join();
        }
    }

    // tryRun runs the job on the pool; false if the pool is busy with another caller's job.
    bool tryRun(int64_t n, int64_t chunk, const std::function<void(int64_t, int64_t)>& body)
    {
        std::unique_lock<std::mutex> jobLock(jobMutex_, std::try_to_lock);
        if(!jobLock.owns_lock())
        {
            return false;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            body_ = &body;
            n_ = n;
            chunk_ = chunk;
            nextChunk_.store(0);
            pending_ = static_cast<int>(threads_.size());
            error_ = nullptr;
            ++generation_;
        }
        wake_.notify_all();
        runChunks();
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return pending_ == 0; });
        body_ = nullptr;
        if(error_)
        {
            std::exception_ptr e = error_;
            error_ = nullptr;
            std::rethrow_exception(e);
        }
        return true;
    }

private:
    void runChunks()
    {
        const int64_t chunks = (n_ + chunk_ - 1) / chunk_;
        insidePoolTask = true;
        for(;;)
        {
            const int64_t c = nextChunk_.fetch_add(1);
            if(c >= chunks)
            {
                break;
            }
            try
            {
                (*body_)(c * chunk_, std::min(n_, (c + 1) * chunk_));
            }
            catch(...)
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if(!error_)
                {
                    error_ = std::current_exception();
                }
                nextChunk_.store(chunks); // stop handing out work
            }
        }
        insidePoolTask = false;
    }

    void workerLoop()
    {
        uint64_t seen = 0;
        for(;;)
        {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
                if(stop_)
                {
                    return;
                }
                seen = generation_;
            }
            runChunks();
            {
                std::lock_guard<std::mutex> lock(mutex_);
                --pending_;
            }
            done_.notify_one();
        }
    }

    std::vector<std::thread> threads_;
    std::mutex jobMutex_; // one job at a time
    std::mutex mutex_; // guards the fields below
    std::condition_variable wake_;
    std::condition_variable done_;
    bool stop_ = false;
    uint64_t generation_ = 0;
    const std::function<void(int64_t, int64_t)>* body_ = nullptr;
    int64_t n_ = 0;
    int64_t chunk_ = 1;
    std::atomic<int64_t> nextChunk_{0};
    int pending_ = 0;
    std::exception_ptr error_;
};

ThreadPool& pool()
{
    static ThreadPool instance(threadCount() - 1);
    return instance;
}

} // namespace

int threadCount()
{
    static const int count = resolveThreadCount();
    return count;
}

void parallelFor(int64_t n, int64_t minChunk, const std::function<void(int64_t, int64_t)>& body)
{
    if(n <= 0)
    {
        return;
    }
    const int threads = threadCount();
    minChunk = std::max<int64_t>(minChunk, 1);
    if(threads <= 1 || n <= minChunk || insidePoolTask)
    {
        body(0, n);
        return;
    }
    // About four chunks per thread balances uneven chunks without much scheduling overhead.
    const int64_t chunk = std::max(minChunk, (n + threads * 4 - 1) / (threads * 4));
    if(!pool().tryRun(n, chunk, body))
    {
        body(0, n);
    }
}

} // namespace hipdnngo::cpu_reference
