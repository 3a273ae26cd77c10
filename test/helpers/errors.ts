// The error a call throws or a promise rejects with, checked against its class, so that tests compare classes,
// codes and data rather than messages.

/** The error `fn` throws, which must be of `type`. */
export function thrownBy<C extends abstract new (...args: never[]) => Error>(type: C, fn: () => unknown): InstanceType<C> {
  try {
    fn();
  } catch (e) {
    if (e instanceof type) return e as InstanceType<C>;
    throw e;
  }
  throw new Error(`expected a ${type.name}`);
}

/** The error a promise rejects with, which must be of `type`. */
export async function rejectedWith<C extends abstract new (...args: never[]) => Error>(type: C, promise: Promise<unknown>): Promise<InstanceType<C>> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof type) return e as InstanceType<C>;
    throw e;
  }
  throw new Error(`expected a ${type.name}`);
}
