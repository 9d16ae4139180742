// _core.HandEvents (hand_events.hpp): the type, its sequence protocol and its lazy
// draws and discards.  Whatever Python reads of it is what it reads of the eager
// build's tuple: each item the same class with the same field values (a draw or
// discard made here as the builder makes it), and slices, comparisons, hashes, repr
// and pickles those of the tuple; only the type differs.
// tests/test_core_lazy_events.py holds it equal to the eager tuple over the corpus.
#include "hand_events.hpp"

#include "build_values.hpp"

#include <cstring>
#include <new>

namespace py = pybind11;

namespace replay_audit::core {

PyTypeObject HandEventsType = {PyVarObject_HEAD_INIT(nullptr, 0) "replay_audit._core.HandEvents"};

namespace {

using mjlog::build_values::integer;

HandEventsObject* as_he(PyObject* o) { return reinterpret_cast<HandEventsObject*>(o); }

// The whole tuple, a new reference: the cached one, else made (and not kept: a
// comparison or a hash in a test need not hold every draw for the hand's life).
PyObject* as_tuple(HandEventsObject* he) {
    if (he->tuple != nullptr) return Py_NewRef(he->tuple);
    PyObject* out = PyTuple_New(he->n);
    for (Py_ssize_t i = 0; out != nullptr && i < he->n; ++i) {
        PyObject* item = hand_event_item(he, i);
        if (item == nullptr) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

void dealloc(PyObject* self) {
    HandEventsObject* he = as_he(self);
    for (Py_ssize_t k = 0; k < he->n_objects; ++k) Py_XDECREF(he->objects[k]);
    PyMem_Free(he->records);
    Py_XDECREF(he->tuple);
    he->classes.~shared_ptr();
    Py_TYPE(self)->tp_free(self);
}

Py_ssize_t length(PyObject* self) { return as_he(self)->n; }

PyObject* sq_item(PyObject* self, Py_ssize_t i) {
    HandEventsObject* he = as_he(self);
    if (i < 0 || i >= he->n) {
        PyErr_SetString(PyExc_IndexError, "tuple index out of range");
        return nullptr;
    }
    return hand_event_item(he, i);
}

// events[i] (negative counts from the end) or events[a:b:c] (a tuple, as a tuple's).
PyObject* subscript(PyObject* self, PyObject* key) {
    HandEventsObject* he = as_he(self);
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) return nullptr;
        if (i < 0) i += he->n;
        return sq_item(self, i);
    }
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0) return nullptr;
        const Py_ssize_t len = PySlice_AdjustIndices(he->n, &start, &stop, step);
        PyObject* out = PyTuple_New(len);
        for (Py_ssize_t k = 0, i = start; out != nullptr && k < len; ++k, i += step) {
            PyObject* item = hand_event_item(he, i);
            if (item == nullptr) Py_CLEAR(out);
            else PyTuple_SET_ITEM(out, k, item);
        }
        return out;
    }
    PyErr_Format(PyExc_TypeError, "tuple indices must be integers or slices, not %.200s",
                 Py_TYPE(key)->tp_name);
    return nullptr;
}

// ==, <, ... against a tuple or another HandEvents: the tuples' answer.
PyObject* richcompare(PyObject* self, PyObject* other, int op) {
    if (!PyTuple_Check(other) && !is_hand_events(other)) Py_RETURN_NOTIMPLEMENTED;
    PyObject* mine = as_tuple(as_he(self));
    if (mine == nullptr) return nullptr;
    PyObject* theirs = is_hand_events(other) ? as_tuple(as_he(other)) : Py_NewRef(other);
    PyObject* out = theirs == nullptr ? nullptr : PyObject_RichCompare(mine, theirs, op);
    Py_DECREF(mine);
    Py_XDECREF(theirs);
    return out;
}

Py_hash_t hash(PyObject* self) {
    PyObject* t = as_tuple(as_he(self));
    if (t == nullptr) return -1;
    const Py_hash_t h = PyObject_Hash(t);
    Py_DECREF(t);
    return h;
}

PyObject* repr(PyObject* self) {
    PyObject* t = as_tuple(as_he(self));
    if (t == nullptr) return nullptr;
    PyObject* out = PyObject_Repr(t);
    Py_DECREF(t);
    return out;
}

PyObject* iter(PyObject* self) { return PySeqIter_New(self); }

// materialize(): the whole tuple, made once and kept (for a consumer not converted).
PyObject* materialize(PyObject* self, PyObject*) {
    PyObject* t = events_tuple(self);
    return t == nullptr ? nullptr : Py_NewRef(t);
}

// __reduce__: pickled (and copied) as the tuple it equals.
PyObject* reduce(PyObject* self, PyObject*) {
    PyObject* t = as_tuple(as_he(self));
    if (t == nullptr) return nullptr;
    return Py_BuildValue("(O(N))", reinterpret_cast<PyObject*>(&PyTuple_Type), t);
}

// count and index: the tuple's.
PyObject* tuple_method(PyObject* self, const char* name, PyObject* const* args, Py_ssize_t n) {
    PyObject* t = as_tuple(as_he(self));
    if (t == nullptr) return nullptr;
    PyObject* method = PyObject_GetAttrString(t, name);
    Py_DECREF(t);
    if (method == nullptr) return nullptr;
    PyObject* out = PyObject_Vectorcall(method, args, static_cast<size_t>(n), nullptr);
    Py_DECREF(method);
    return out;
}
PyObject* count(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    return tuple_method(self, "count", args, n);
}
PyObject* index(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    return tuple_method(self, "index", args, n);
}

PySequenceMethods as_sequence = {length, nullptr, nullptr, sq_item};
PyMappingMethods as_mapping = {length, subscript, nullptr};

PyMethodDef methods[] = {
    {"materialize", materialize, METH_NOARGS,
     "The events as a tuple (made once, then kept): the eager build's tuple."},
    {"__reduce__", reduce, METH_NOARGS, "Pickled as the equal tuple."},
    {"count", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(count)), METH_FASTCALL,
     "As tuple.count."},
    {"index", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(index)), METH_FASTCALL,
     "As tuple.index."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyTypeObject* lazy_draw_type(const HandEventsObject* he) { return he->classes->draw.type(); }
PyTypeObject* lazy_discard_type(const HandEventsObject* he) {
    return he->classes->discard.type();
}

HandEventsObject* new_hand_events(Py_ssize_t n, Py_ssize_t n_objects,
                                  const std::shared_ptr<const LazyClasses>& classes) {
    HandEventsObject* he = PyObject_New(HandEventsObject, &HandEventsType);
    if (he == nullptr) return nullptr;
    new (&he->classes) std::shared_ptr<const LazyClasses>(classes);
    he->n = n;
    he->n_objects = 0;  // until the block is there (dealloc reads it)
    he->tuple = nullptr;
    he->objects = nullptr;
    // the records (16 bytes each) and then the object pointers, which stay aligned
    static_assert(sizeof(EventRecord) % alignof(PyObject*) == 0, "records then pointers");
    const std::size_t records = sizeof(EventRecord) * std::size_t(n);
    const std::size_t pointers = sizeof(PyObject*) * std::size_t(n_objects);
    he->records = static_cast<EventRecord*>(PyMem_Malloc(records + pointers + 1));
    if (he->records == nullptr) {
        Py_DECREF(he);
        PyErr_NoMemory();
        return nullptr;
    }
    he->objects = reinterpret_cast<PyObject**>(reinterpret_cast<char*>(he->records) + records);
    std::memset(he->objects, 0, pointers);  // a build that fails halfway leaves nulls
    he->n_objects = n_objects;
    return he;
}

PyObject* lazy_int(long v) {
    using mjlog::build_values::cached_ints;
    if (static_cast<unsigned long>(v) < cached_ints.size())
        return cached_ints[static_cast<std::size_t>(v)];
    return nullptr;
}

PyObject* hand_event_item(HandEventsObject* he, Py_ssize_t i) {
    const EventRecord& r = he->records[i];
    if (r.obj >= 0) return Py_NewRef(he->objects[r.obj]);
    const LazyClasses& cls = *he->classes;
    try {
        if (r.kind == kLazyDraw)
            return cls.draw.make(integer(r.seq), integer(r.seat), integer(r.tile));
        return cls.discard.make(integer(r.seq), integer(r.seat), integer(r.tile),
                                Py_NewRef(r.tsumogiri == 1 ? Py_True : Py_False));
    } catch (py::error_already_set& e) {
        e.restore();
        return nullptr;
    }
}

PyObject* events_tuple(PyObject* events) {
    if (!is_hand_events(events)) return events;
    HandEventsObject* he = as_he(events);
    if (he->tuple == nullptr) he->tuple = as_tuple(he);
    return he->tuple;
}

void add_hand_events_type(py::module_& m) {
    PyTypeObject& t = HandEventsType;
    if (t.tp_flags & Py_TPFLAGS_READY) return;
    t.tp_basicsize = sizeof(HandEventsObject);
    t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE;
    t.tp_doc =
        "A hand's events (HandLog.events of the audit's lazy build): equal to the tuple of\n"
        "the eager build, item by item; its draws and discards are made when read.";
    t.tp_dealloc = dealloc;
    t.tp_repr = repr;
    t.tp_hash = hash;
    t.tp_richcompare = richcompare;
    t.tp_iter = iter;
    t.tp_as_sequence = &as_sequence;
    t.tp_as_mapping = &as_mapping;
    t.tp_methods = methods;
    if (PyType_Ready(&t) < 0) throw py::error_already_set();
    m.add_object("HandEvents", py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&t)));
}

}  // namespace replay_audit::core
