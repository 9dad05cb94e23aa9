/**
 * A setup file of the in-process projects: with `TEST_CLOCK_SHIFT_DAYS=<n>` the tests of a file run with the
 * clock moved n days (vitest.config.ts runs the core project at three clocks; docs/testing.md). `new Date()` and
 * `Date.now()` read the moved clock; every other use of Date is the real one.
 *
 * Written here rather than with Vitest's fake timers: those, like any subclass of Date, replace Date.prototype's
 * methods for code that copies them (`@date-fns/tz` builds TZDate from Date.prototype's own methods), which then
 * breaks for reasons of the fake's, not the code's. A Proxy keeps the real Date and its prototype.
 */

const SHIFT = Symbol.for('departures-board.clock-shift-ms');
const state = globalThis as { [SHIFT]?: { offset: number } };

// Read for every file, so that the offset always is the one of the file's own project.
const offset = Number(process.env.TEST_CLOCK_SHIFT_DAYS ?? 0) * 86_400_000;
if (state[SHIFT] === undefined && offset !== 0) {
  const shift = { offset };
  state[SHIFT] = shift;
  const RealDate = Date;
  const now = () => RealDate.now() + shift.offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length > 0 ? args : [now()], newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, property, receiver) => (property === 'now' ? now : Reflect.get(target, property, receiver)),
  });
} else if (state[SHIFT] !== undefined) {
  state[SHIFT].offset = offset;
}
