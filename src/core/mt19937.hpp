// MT19937 (Matsumoto & Nishimura 1998), as the reference mt19937ar.c defines it:
// init_genrand, init_by_array and genrand_int32.  Tenhou seeds it with init_by_array.
#pragma once

#include <cstddef>
#include <cstdint>

namespace replay_audit::core {

class Mt19937 {
public:
    static constexpr int kN = 624;

    // The reference init_by_array over ``len`` key words (``len`` >= 1).
    void init_by_array(const std::uint32_t* key, std::size_t len) {
        init_genrand(19650218U);
        std::size_t i = 1, j = 0;
        for (std::size_t k = len > kN ? len : kN; k != 0; --k) {
            const std::uint32_t prev = mt_[i - 1];
            mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] +
                     static_cast<std::uint32_t>(j);
            if (++i >= kN) {
                mt_[0] = mt_[kN - 1];
                i = 1;
            }
            if (++j >= len) j = 0;
        }
        for (int k = kN - 1; k != 0; --k) {
            const std::uint32_t prev = mt_[i - 1];
            mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) -
                     static_cast<std::uint32_t>(i);
            if (++i >= kN) {
                mt_[0] = mt_[kN - 1];
                i = 1;
            }
        }
        mt_[0] = 0x80000000U;  // the most significant bit is non-zero: a non-zero state
        index_ = kN;
    }

    // The next output of genrand_int32.
    std::uint32_t next() {
        if (index_ >= kN) twist();
        return temper(mt_[index_++]);
    }

    // The next ``n`` outputs, as ``next`` would give them one by one: a run of the
    // state at a time, in loops the compiler vectorizes (a hand takes 288 words).
    void fill(std::uint32_t* out, std::size_t n) {
        while (n != 0) {
            if (index_ >= kN) twist();
            const std::size_t left = static_cast<std::size_t>(kN - index_);
            const std::size_t run = n < left ? n : left;
            const std::uint32_t* from = mt_ + index_;
            for (std::size_t k = 0; k < run; ++k) out[k] = temper(from[k]);
            index_ += static_cast<int>(run);
            out += run;
            n -= run;
        }
    }

private:
    static constexpr int kM = 397;
    static constexpr std::uint32_t kMatrixA = 0x9908b0dfU;
    static constexpr std::uint32_t kUpper = 0x80000000U;
    static constexpr std::uint32_t kLower = 0x7fffffffU;

    void init_genrand(std::uint32_t seed) {
        mt_[0] = seed;
        for (int i = 1; i < kN; ++i) {
            const std::uint32_t prev = mt_[i - 1];
            mt_[i] = 1812433253U * (prev ^ (prev >> 30)) + static_cast<std::uint32_t>(i);
        }
        index_ = kN;
    }

    static std::uint32_t temper(std::uint32_t y) {
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        return y ^ (y >> 18);
    }

    // mag01[y & 1] of the reference as a mask (no branch, no table: vectorizable).
    static std::uint32_t mix(std::uint32_t upper, std::uint32_t lower) {
        const std::uint32_t y = (upper & kUpper) | (lower & kLower);
        return (y >> 1) ^ (kMatrixA & (0U - (y & 1U)));
    }

    void twist() {
        int k = 0;
        for (; k < kN - kM; ++k) mt_[k] = mt_[k + kM] ^ mix(mt_[k], mt_[k + 1]);
        for (; k < kN - 1; ++k) mt_[k] = mt_[k + kM - kN] ^ mix(mt_[k], mt_[k + 1]);
        mt_[kN - 1] = mt_[kM - 1] ^ mix(mt_[kN - 1], mt_[0]);
        index_ = 0;
    }

    std::uint32_t mt_[kN] = {};
    int index_ = kN + 1;
};

}  // namespace replay_audit::core
