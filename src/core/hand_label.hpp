// A hand's label (replay_audit.model.events.hand_label: ``E1-0``, round wind, hand number,
// honba), written in C for the facts' rows (facts_rows.cpp, score_rows.cpp): through the
// ``HandLog.label`` property it was a Python call per hand, twice per hand (hand facts and
// score history).  Python's property stays the reference: the rows' equality tests
// (tests/test_core_facts.py) compare every label of the corpus with it.
#pragma once

#include <pybind11/pybind11.h>

#include "slots.hpp"

namespace replay_audit::core {

// The ``round_index`` and ``honba`` slots of one hand class, found once per class.
struct LabelSlots {
    PyTypeObject* type = nullptr;
    Py_ssize_t round_index = -1, honba = -1;
    bool ok = false;

    bool of(PyTypeObject* t) {
        if (t == type) return ok;
        round_index = slot_offset(t, "round_index");
        honba = slot_offset(t, "honba");
        ok = round_index >= 0 && honba >= 0;
        Py_INCREF(t);
        Py_XDECREF(type);
        type = t;
        return ok;
    }
};

// ``hand.label`` as a new reference (nullptr with an error set on failure): written here
// when the round and honba are plain ints in 0..2**30, else the property's own answer.
inline PyObject* hand_label(PyObject* hand) {
    static LabelSlots slots;
    static PyObject* label_name = PyUnicode_InternFromString("label");
    if (label_name == nullptr) return nullptr;
    if (slots.of(Py_TYPE(hand))) {
        char* base = reinterpret_cast<char*>(hand);
        PyObject* r = *reinterpret_cast<PyObject**>(base + slots.round_index);
        PyObject* h = *reinterpret_cast<PyObject**>(base + slots.honba);
        if (r != nullptr && h != nullptr && PyLong_CheckExact(r) && PyLong_CheckExact(h)) {
            int overflow = 0;
            const long round = PyLong_AsLongAndOverflow(r, &overflow);
            const long honba = overflow == 0 ? PyLong_AsLongAndOverflow(h, &overflow) : -1;
            if (overflow == 0 && round >= 0 && honba >= 0 && round < (1L << 30) &&
                honba < (1L << 30)) {
                char text[32];
                char* out = text;
                *out++ = "ESWN"[round / 4 % 4];
                *out++ = static_cast<char>('1' + round % 4);
                *out++ = '-';
                char digits[16];
                int len = 0;
                long v = honba;
                do {
                    digits[len++] = static_cast<char>('0' + v % 10);
                    v /= 10;
                } while (v > 0);
                while (len > 0) *out++ = digits[--len];
                return PyUnicode_FromStringAndSize(text, out - text);
            }
        }
    }
    return PyObject_GetAttr(hand, label_name);
}

}  // namespace replay_audit::core
