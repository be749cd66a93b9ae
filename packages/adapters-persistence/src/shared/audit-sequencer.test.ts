import { describe, expect, it } from 'vitest';
import { AuditSequencer, SEQUENCE_BATCH, type ChainingPass } from './audit-sequencer';

/** A pass over a count of waiting events, whose passes can be held open to race callers against them. */
function countingPass() {
  const state = { waiting: 0, chained: 0, passes: 0, hold: undefined as Promise<void> | undefined };
  const pass: ChainingPass = {
    hasPending: async () => state.waiting > 0,
    chain: async () => {
      state.passes += 1;
      const taken = Math.min(state.waiting, SEQUENCE_BATCH);
      state.waiting -= taken;
      await state.hold;
      state.chained += taken;
      return taken;
    },
  };
  return { state, pass };
}

describe('AuditSequencer', () => {
  it('answers a caller only after a pass that began after its call, even while another pass runs', async () => {
    const { state, pass } = countingPass();
    const sequencer = new AuditSequencer(pass);
    let release = () => {};
    state.hold = new Promise((resolve) => (release = resolve));
    state.waiting = 3;
    const first = sequencer.sequence();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Recorded while the first pass is under way, after it read what was waiting.
    state.waiting += 2;
    const second = sequencer.sequence();
    const third = sequencer.sequence();
    state.hold = undefined;
    release();
    await Promise.all([first, second, third]);
    expect(state).toMatchObject({ waiting: 0, chained: 5, passes: 2 });
  });

  it('works off a backlog in batches, and chains what waits when it stops', async () => {
    const { state, pass } = countingPass();
    const sequencer = new AuditSequencer(pass);
    state.waiting = 2 * SEQUENCE_BATCH + 1;
    await sequencer.sequence();
    expect(state).toMatchObject({ waiting: 0, chained: 2 * SEQUENCE_BATCH + 1, passes: 3 });
    state.waiting = 4;
    await sequencer.stop();
    expect(state.chained).toBe(2 * SEQUENCE_BATCH + 5);
  });

  it('makes no pass when nothing waits', async () => {
    const { state, pass } = countingPass();
    await new AuditSequencer(pass).sequence();
    expect(state.passes).toBe(0);
  });
});
