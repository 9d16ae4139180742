// The walls of a game's hands in one core call (replay_hand.hpp): the usual case of
// replay_audit.replay.walls._WallSource.for_hand, each hand's wall read from the game's
// wall stream by hand_wall (replay.hpp).  ``for_hand`` stays the reference: it decides
// every hand this leaves (NotImplemented), and tests/test_core_replay_hand.py holds the
// two equal on the corpus.
#include "replay.hpp"
#include "replay_hand.hpp"

#include "py_errors.hpp"

namespace py = pybind11;

namespace replay_audit::core {

namespace {


}  // namespace

PyObject* hand_walls(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return python_errors([&]() -> PyObject* {
        if (nargs != 7) throw py::type_error("hand_walls takes 7 arguments");
        PyObject* stream = args[0];
        PyObject* cache = args[1];
        PyObject* hands = args[2];
        PyObject* plans = args[3];
        PyObject* make = args[5];
        PyObject* wall_cls = args[6];
        const Py_ssize_t limit = PyLong_AsSsize_t(args[4]);
        if (limit == -1 && PyErr_Occurred()) throw py::error_already_set();
        if (!PyList_CheckExact(cache) || !PyTuple_CheckExact(hands) || !PyTuple_CheckExact(plans) ||
            !PyIter_Check(stream))
            throw py::type_error("hand_walls(stream, cache: list, hands: tuple, plans: tuple, ...)");
        static PyObject* s_extra = PyUnicode_InternFromString("extra");
        static PyObject* s_index = PyUnicode_InternFromString("index");
        static PyObject* s_dealer = PyUnicode_InternFromString("dealer");
        static PyObject* s_dora = PyUnicode_InternFromString("dora_indicator");
        static PyObject* s_haipai = PyUnicode_InternFromString("haipai");
        const Py_ssize_t n = PyTuple_GET_SIZE(hands);
        py::object out = own(PyList_New(n));
        for (Py_ssize_t k = 0; k < n; ++k) {
            PyObject* hand = PyTuple_GET_ITEM(hands, k);
            py::object found = py::reinterpret_borrow<py::object>(Py_NotImplemented);
            py::object extra = own(PyObject_GetAttr(hand, s_extra));
            const int has_extra = PyObject_IsTrue(extra.ptr());
            if (has_extra < 0) throw py::error_already_set();
            py::object index = own(PyObject_GetAttr(hand, s_index));
            py::object dealer = own(PyObject_GetAttr(hand, s_dealer));
            const Py_ssize_t i = PyLong_AsSsize_t(index.ptr());
            const Py_ssize_t d = PyLong_AsSsize_t(dealer.ptr());
            if ((i == -1 || d == -1) && PyErr_Occurred()) PyErr_Clear();
            if (!has_extra && i >= 0 && d >= 0 && d < PyTuple_GET_SIZE(plans)) {
                // for_hand's "while len(cache) <= i and self._more()", as it would run.
                while (PyList_GET_SIZE(cache) <= i && PyList_GET_SIZE(cache) < limit) {
                    py::object record = py::reinterpret_steal<py::object>(PyIter_Next(stream));
                    if (!record) {
                        if (PyErr_Occurred()) throw py::error_already_set();
                        throw py::value_error("hand_walls: the wall stream ended");
                    }
                    if (PyList_Append(cache, record.ptr()) < 0) throw py::error_already_set();
                }
                PyObject* plan = PyTuple_GET_ITEM(plans, d);
                if (i < PyList_GET_SIZE(cache) && plan != Py_None) {
                    py::object dora = own(PyObject_GetAttr(hand, s_dora));
                    py::object haipai = own(PyObject_GetAttr(hand, s_haipai));
                    PyObject* argv[4] = {PyList_GET_ITEM(cache, i), plan, dora.ptr(), haipai.ptr()};
                    py::object got = own(hand_wall(nullptr, argv, 4));
                    if (PyTuple_CheckExact(got.ptr()) && PyTuple_GET_SIZE(got.ptr()) == 5) {
                        PyObject* make_argv[6] = {wall_cls, PyTuple_GET_ITEM(got.ptr(), 0),
                                                  PyTuple_GET_ITEM(got.ptr(), 1), PyTuple_GET_ITEM(got.ptr(), 2),
                                                  PyTuple_GET_ITEM(got.ptr(), 3), PyTuple_GET_ITEM(got.ptr(), 4)};
                        found = own(PyObject_Vectorcall(make, make_argv, 6, nullptr));
                    }
                }
            }
            PyList_SET_ITEM(out.ptr(), k, found.release().ptr());
        }
        return out.release().ptr();
    });
}

}  // namespace replay_audit::core
