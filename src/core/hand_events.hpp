// _core.HandEvents: a hand's events without an object per draw and discard.
//
// GameBuilder's lazy build (build_events.cpp) gives each HandLog this sequence instead
// of a tuple: a record per event (kind, seq, seat, tile, tsumogiri) and, for the few
// events that are neither a Draw nor a Discard, the very object the eager build makes.
// A Phoenix game's draws and discards were nine in ten of its ~1,300 event objects,
// made and freed again on every audit; here they are made only when Python asks for
// one (item, iteration, slice, ``materialize()``), each equal to the eager build's.
//
// The C++ readers of ``hand.events`` (replay, hand audit, facts) read the records
// through EventSeq below, the same for a tuple and a HandEvents, so that each keeps
// one loop and its rules in one place: only the access differs.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>

namespace replay_audit::core {

// EventRecord.kind: the model class of the event.
enum LazyKind : std::int8_t { kLazyDraw = 0, kLazyDiscard = 1, kLazyOther = 2 };

struct EventRecord {
    std::int32_t seq;
    std::int32_t obj;  // index into the objects, or -1 (a draw or discard)
    std::int16_t tile;
    std::int8_t kind;  // LazyKind
    std::int8_t seat;
    std::int8_t tsumogiri;
};

// The classes a lazy draw or discard is made of, shared by the builder and its hands.
struct LazyClasses;

// One block of PyMem per hand holds the records and, after them, the objects: a hand
// costs the object and that block (a Phoenix game has some ten hands).
struct HandEventsObject {
    PyObject_HEAD
    Py_ssize_t n;
    EventRecord* records;  // n of them, then the objects (the block's one allocation)
    PyObject** objects;    // the other events' objects, owned
    Py_ssize_t n_objects;
    PyObject* tuple;  // the whole tuple once materialized, else null
    std::shared_ptr<const LazyClasses> classes;  // constructed in place (new_hand_events)
};

extern PyTypeObject HandEventsType;

inline bool is_hand_events(PyObject* o) { return Py_TYPE(o) == &HandEventsType; }

// The Draw and Discard classes of ``he``'s lazy events (borrowed).
PyTypeObject* lazy_draw_type(const HandEventsObject* he);
PyTypeObject* lazy_discard_type(const HandEventsObject* he);

// A new, empty HandEvents of ``n`` events and ``n_objects`` objects to be filled in
// (records then objects, each object slot a new reference), or null with the error set.
HandEventsObject* new_hand_events(Py_ssize_t n, Py_ssize_t n_objects,
                                  const std::shared_ptr<const LazyClasses>& classes);

// ``events`` as a tuple: itself, or a HandEvents' cached tuple (made on first use);
// borrowed, null with the error set.  For the readers not converted.
PyObject* events_tuple(PyObject* events);

// Event ``i`` as a new reference: the stored object, or a new Draw or Discard.
PyObject* hand_event_item(HandEventsObject* he, Py_ssize_t i);

// Adds the HandEvents type to the module.
void add_hand_events_type(pybind11::module_& m);

// The int object of a tile, seat or seq of a lazy event (borrowed: build_values'
// cached ints, which the lazy build grows past every tile id).
PyObject* lazy_int(long v);

// The events of a hand as the readers see them, over a tuple or a HandEvents.  For a
// lazy draw or discard ``object`` is null and ``type`` the builder's class; its seat,
// tile and tsumogiri come from the record (``seat_obj``/``tile_obj``: the very int
// objects the eager build would have put in its slots).
class EventSeq {
public:
    explicit EventSeq(PyObject* events) {
        if (PyTuple_CheckExact(events)) {
            items_ = &PyTuple_GET_ITEM(events, 0);
            n_ = PyTuple_GET_SIZE(events);
        } else if (is_hand_events(events)) {
            lazy_ = reinterpret_cast<HandEventsObject*>(events);
            n_ = lazy_->n;
            draw_ = lazy_draw_type(lazy_);
            discard_ = lazy_discard_type(lazy_);
        } else {
            n_ = -1;
        }
    }
    bool ok() const { return n_ >= 0; }
    // For a reader given these Draw and Discard classes: a lazy seq whose draws and
    // discards are of other classes is read as its materialized tuple instead (and
    // ``events`` then names that tuple, for what the reader passes it on to), so a
    // lazy event is never taken for another class.  A tuple stays as it is.
    void read_as(PyObject*& events, PyTypeObject* draw, PyTypeObject* discard) {
        if (lazy_ == nullptr || (draw == draw_ && discard == discard_)) return;
        events = events_tuple(events);
        if (events == nullptr) throw pybind11::error_already_set();
        *this = EventSeq(events);
    }
    bool lazy() const { return lazy_ != nullptr; }
    Py_ssize_t size() const { return n_; }

    // The event's object (borrowed), or null for a lazy draw or discard.
    PyObject* object(Py_ssize_t i) const {
        if (lazy_ == nullptr) return items_[i];
        const std::int32_t k = lazy_->records[i].obj;
        return k < 0 ? nullptr : lazy_->objects[k];
    }
    PyTypeObject* type(Py_ssize_t i) const {
        if (lazy_ == nullptr) return Py_TYPE(items_[i]);
        const EventRecord& r = lazy_->records[i];
        if (r.kind == kLazyDraw) return draw_;
        if (r.kind == kLazyDiscard) return discard_;
        return Py_TYPE(lazy_->objects[r.obj]);
    }
    // Event ``i`` as a new reference (a lazy draw or discard made now), null on error.
    PyObject* item(Py_ssize_t i) const {
        if (lazy_ == nullptr) return Py_NewRef(items_[i]);
        return hand_event_item(lazy_, i);
    }
    // Only for a lazy event (object(i) null).
    const EventRecord& record(Py_ssize_t i) const { return lazy_->records[i]; }
    // Prefetch hint for the event ``i`` (a tuple's object, a record's line).
    void prefetch(Py_ssize_t i) const {
        if (i >= n_) return;
        if (lazy_ == nullptr) __builtin_prefetch(items_[i]);
    }

private:
    PyObject* const* items_ = nullptr;
    HandEventsObject* lazy_ = nullptr;
    PyTypeObject* draw_ = nullptr;
    PyTypeObject* discard_ = nullptr;
    Py_ssize_t n_ = 0;
};

}  // namespace replay_audit::core
