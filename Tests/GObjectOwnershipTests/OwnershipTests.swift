import CGio
import GObjectOwnership
import Testing

/// Real GObjects (plain `GObject` and `GInitiallyUnowned` instances) whose
/// finalisation is watched with a weak reference.
@Suite("Owning references and callback contexts")
struct OwnershipTests {
    /// A new object of `type` (floating for `GInitiallyUnowned`).
    static func make(_ type: GType) -> UnsafeMutableRawPointer {
        // g_object_new is variadic; this is its non-variadic form.
        let made = g_object_new_with_properties(type, 0, nil, nil)
        return UnsafeMutableRawPointer(made!)
    }

    /// Whether `object` is still alive, without keeping it so.
    final class Watch {
        // GLib keeps the GWeakRef's address: it must not move.
        private let storage = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)
        init(_ object: UnsafeMutableRawPointer) {
            storage.initialize(to: GWeakRef())
            g_weak_ref_init(storage, object)
        }
        var alive: Bool {
            guard let strong = g_weak_ref_get(storage) else { return false }
            g_object_unref(strong)
            return true
        }
        deinit {
            g_weak_ref_clear(storage)
            storage.deinitialize(count: 1)
            storage.deallocate()
        }
    }

    static func count(_ object: UnsafeMutableRawPointer) -> UInt32 {
        object.assumingMemoryBound(to: GObject.self).pointee.ref_count
    }

    @Test func takingAdoptsTheReferenceAndDropsItOnceInDeinit() {
        let object = Self.make(g_object_get_type())
        let watch = Watch(object)
        var owned: OwnedReference<UnsafeMutableRawPointer>? = OwnedReference(taking: object)
        #expect(Self.count(object) == 1, "taking adds no reference")
        #expect(owned?.refers(to: object) == true)
        owned = nil
        #expect(!watch.alive, "the one reference went in deinit")
    }

    @Test func borrowingAddsAReferenceOfItsOwn() {
        let object = Self.make(g_object_get_type())
        let watch = Watch(object)
        var owned: OwnedReference<OpaquePointer>? = OwnedReference(borrowing: OpaquePointer(object))
        #expect(Self.count(object) == 2 && owned != nil)
        owned = nil
        #expect(Self.count(object) == 1, "only its own reference went")
        #expect(watch.alive)
        g_object_unref(object)
        #expect(!watch.alive)
    }

    @Test func takingSinksAFloatingReference() {
        let object = Self.make(g_initially_unowned_get_type())
        #expect(g_object_is_floating(object) != 0)
        let watch = Watch(object)
        var owned: OwnedReference<UnsafeMutableRawPointer>? = OwnedReference(taking: object)
        #expect(g_object_is_floating(object) == 0)
        #expect(Self.count(object) == 1 && owned != nil)
        owned = nil
        #expect(!watch.alive)
    }

    @Test func newReferenceIsOneMoreForTheCallee() {
        let object = Self.make(g_object_get_type())
        let owned = OwnedReference(taking: object)
        let handed = owned.newReference()
        #expect(Self.count(object) == 2)
        g_object_unref(handed)
        #expect(Self.count(object) == 1)
    }

    @Test func aCustomCountingIsUsedBothWays() {
        let counts = Counts()
        let counting = ReferenceCounting(retain: { _ in counts.add(retained: 1) }, release: { _ in counts.add(released: 1) })
        var owned: OwnedReference<UnsafeMutableRawPointer>? = OwnedReference(borrowing: UnsafeMutableRawPointer(bitPattern: 0x10)!,
                                                                            counting: counting)
        #expect(counts.value.retained == 1 && counts.value.released == 0 && owned != nil)
        owned = nil
        #expect(counts.value.retained == 1 && counts.value.released == 1)
    }

    final class Counts: @unchecked Sendable {
        // `@unchecked Sendable`: the tests call it on one thread.
        private(set) var value = (retained: 0, released: 0)
        func add(retained: Int = 0, released: Int = 0) { value = (value.retained + retained, value.released + released) }
    }

    final class Target {}

    @Test func aContextReachesItsTargetWeaklyAndIsFreedByItsDestroyNotify() {
        var target: Target? = Target()
        let data = CallbackContext.retained(target!)
        weak let box = Unmanaged<CallbackContext>.fromOpaque(data).takeUnretainedValue()
        #expect(CallbackContext.target(of: data, as: Target.self) === target)
        #expect(CallbackContext.target(of: data, as: Counts.self) == nil, "another type is not it")
        target = nil
        #expect(CallbackContext.target(of: data, as: Target.self) == nil, "the context does not keep its target")
        #expect(box != nil)
        CallbackContext.destroyNotify(data)
        #expect(box == nil, "the destroy notify released the box")
    }

    @Test func aSignalsClosureNotifyReleasesTheContextWhenTheObjectGoes() {
        let object = Self.make(g_object_get_type())
        let target = Target()
        let data = CallbackContext.retained(target)
        weak let box = Unmanaged<CallbackContext>.fromOpaque(data).takeUnretainedValue()
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, _ in }
        g_signal_connect_data(object, "notify", unsafeBitCast(handler, to: GCallback.self), data,
                              { data, _ in CallbackContext.release(data) }, GConnectFlags(rawValue: 0))
        #expect(box != nil)
        g_object_unref(object)
        #expect(box == nil, "finalising the object disconnected the handler and released its context")
    }
}
