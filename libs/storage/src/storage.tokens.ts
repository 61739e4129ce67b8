/** Injection token of the process's {@link ObjectStore}. */
export const OBJECT_STORE = Symbol.for('genasset:object-store');
