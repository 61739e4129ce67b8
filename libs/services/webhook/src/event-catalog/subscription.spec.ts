import { checkSubscription } from './subscription';

describe('checkSubscription', () => {
  it('accepts known types of the owner kind, dropping duplicates in order', () => {
    expect(
      checkSubscription('project', ['generation.completed', 'generation.failed', 'generation.completed']),
    ).toEqual({
      ok: true,
      events: ['generation.completed', 'generation.failed'],
    });
    expect(checkSubscription('team', ['team.credit.threshold.crossed'])).toEqual({
      ok: true,
      events: ['team.credit.threshold.crossed'],
    });
  });

  it('accepts * alone for either owner', () => {
    expect(checkSubscription('project', ['*'])).toEqual({ ok: true, events: ['*'] });
    expect(checkSubscription('team', ['*', '*'])).toEqual({ ok: true, events: ['*'] });
  });

  it('refuses an empty list', () => {
    expect(checkSubscription('project', [])).toEqual({ ok: false, problem: { kind: 'empty' } });
  });

  it('reports unknown types before wrong-kind ones', () => {
    expect(checkSubscription('project', ['team.credit.threshold.crossed', 'generation.exploded'])).toEqual({
      ok: false,
      problem: { kind: 'unknown', types: ['generation.exploded'] },
    });
    // Upstream's enum has generation.cancelled; our spec says cancelled generations send nothing.
    expect(checkSubscription('project', ['generation.cancelled'])).toMatchObject({
      ok: false,
      problem: { kind: 'unknown' },
    });
  });

  it('refuses the other kind of event, alone or mixed', () => {
    expect(checkSubscription('project', ['team.credit.threshold.crossed'])).toEqual({
      ok: false,
      problem: { kind: 'wrong-owner', types: ['team.credit.threshold.crossed'] },
    });
    expect(checkSubscription('team', ['generation.completed', 'team.credit.threshold.crossed'])).toEqual({
      ok: false,
      problem: { kind: 'wrong-owner', types: ['generation.completed'] },
    });
    expect(checkSubscription('project', ['*', 'team.credit.threshold.crossed'])).toMatchObject({
      ok: false,
      problem: { kind: 'wrong-owner' },
    });
  });

  it('refuses * combined with types', () => {
    expect(checkSubscription('project', ['*', 'generation.completed'])).toEqual({
      ok: false,
      problem: { kind: 'wildcard-combined' },
    });
  });
});
