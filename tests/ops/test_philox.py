"""Philox4x32-10 against its published answers, and the float32 Box-Muller's logf/sincosf
against the C library where it is glibc."""
import ctypes
import ctypes.util
import platform

import numpy as np
import pytest

from tapeflow.ops import philox

# Random123's known answers: (key, counter, block).
KNOWN = [(0, 0, [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
         (2 ** 64 - 1, 2 ** 128 - 1, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
         (0xA4093822 | 0x299F31D0 << 32,
          0x243F6A88 | 0x85A308D3 << 32 | 0x13198A2E << 64 | 0x03707344 << 96,
          [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1])]


@pytest.mark.parametrize("key,counter,block", KNOWN)
def test_blocks_match_the_known_answers(key, counter, block):
    np.testing.assert_array_equal(philox.blocks(key, counter, [0])[0], block)


def test_block_offsets_carry_into_the_high_counter_word():
    low = 2 ** 64 - 2
    np.testing.assert_array_equal(philox.blocks(5, low, [0, 1, 2, 3]),
                                  [philox.blocks(5, low + i, [0])[0] for i in range(4)])
    assert philox.skip(2 ** 128 - 1, 2) == 1


def test_transforms_fill_groups_in_order_and_ignore_the_tail():
    words = philox.blocks(9, 0, [0, 1])
    np.testing.assert_array_equal(philox.full_int(9, 0, 6, np.int32),
                                  words.reshape(-1)[:6].view(np.int32))
    wide = philox.full_int(9, 0, 3, np.int64).view(np.uint64)
    assert int(wide[0]) == int(words[0, 0]) | int(words[0, 1]) << 32
    assert int(wide[2]) == int(words[1, 0]) | int(words[1, 1]) << 32
    np.testing.assert_array_equal(philox.normal(9, 0, 5, np.float32),
                                  philox.normal(9, 0, 8, np.float32)[:5])


def test_uniform_ranges_and_integers():
    for dtype in (np.float16, np.float32, np.float64):
        u = philox.uniform(3, 4, 4096, dtype)
        assert u.dtype == dtype and u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.03
    ints = philox.uniform_int(3, 4, 4096, np.int64, -3, 4)
    assert set(ints.tolist()) == set(range(-3, 4))


def test_truncated_normal_keeps_within_two_and_looks_normal():
    x = philox.truncated_normal(1, 2, 20000, np.float32)
    assert np.abs(x).max() < 2 and abs(x.mean()) < 0.02 and abs(x.std() - 0.88) < 0.02


def _libm():
    name = ctypes.util.find_library("m")
    if platform.system() != "Linux" or name is None or platform.libc_ver()[0] != "glibc":
        pytest.skip("the emulated logf/sincosf are glibc's")
    lib = ctypes.CDLL(name)
    lib.logf.restype, lib.logf.argtypes = ctypes.c_float, [ctypes.c_float]
    lib.sinf.restype, lib.sinf.argtypes = ctypes.c_float, [ctypes.c_float]
    lib.cosf.restype, lib.cosf.argtypes = ctypes.c_float, [ctypes.c_float]
    return lib


def test_logf_and_sincosf_are_glibcs_on_the_box_muller_inputs():
    libm = _libm()
    words = philox.blocks(11, 0, np.arange(1000, dtype=np.uint64)).reshape(-1)
    u = np.maximum(philox._unit_float32(words), np.float32(1e-7))
    angle = (2 * np.pi * u.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(philox._logf(u), [libm.logf(float(v)) for v in u])
    sin, cos = philox._sincosf(angle)
    np.testing.assert_array_equal(sin, [libm.sinf(float(v)) for v in angle])
    np.testing.assert_array_equal(cos, [libm.cosf(float(v)) for v in angle])
