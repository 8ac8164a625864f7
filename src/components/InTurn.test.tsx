import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Profiler, useState } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { InTurn, TakingTurns } from './InTurn';

// The browser runs every idle callback due in an idle period one after another: here they wait
// in a list until flushIdle runs all of them at once.
let idleCallbacks: Array<() => void> = [];
beforeEach(() => {
  idleCallbacks = [];
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => idleCallbacks.push(callback));
  vi.stubGlobal('cancelIdleCallback', (id: number) => {
    idleCallbacks[id - 1] = () => {};
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Runs the idle callbacks due, together, until none is left. */
async function flushIdle() {
  for (let round = 0; round < 20; round++) {
    await act(async () => {
      await Promise.resolve();
    });
    if (idleCallbacks.length === 0) return;
    const due = idleCallbacks;
    idleCallbacks = [];
    await act(async () => {
      for (const callback of due) callback();
    });
  }
}

/** The parts in the page after each commit React made (Profiler's onRender runs in the commit). */
function renderRecorded(ui: React.ReactNode) {
  const commits: string[][] = [];
  const snapshot = () => [...document.querySelectorAll('[data-part]')].map((element) => element.getAttribute('data-part')!);
  const view = render(
    <Profiler id="parts" onRender={() => commits.push(snapshot())}>
      {ui}
    </Profiler>,
  );
  return { ...view, commits };
}

const Part = ({ name }: { name: string }) => <p data-part={name}>{name}</p>;

describe('InTurn: one part per commit', () => {
  it('draws the parts one after another, in the order they asked, each in a commit of its own', async () => {
    const { commits } = renderRecorded(
      <TakingTurns>
        <Part name="figures" />
        {['trend', 'breakdowns', 'leaderboard'].map((name) => (
          <InTurn key={name}>
            <Part name={name} />
          </InTurn>
        ))}
      </TakingTurns>,
    );
    expect(commits[0]).toEqual(['figures']);
    await flushIdle();
    expect(screen.queryByText('leaderboard')).not.toBeNull();
    // Every commit added at most one part, and they came in order.
    const added = commits.map((parts, index) => parts.filter((part) => !(commits[index - 1] ?? []).includes(part)));
    expect(added.filter((parts) => parts.length > 0)).toEqual([['figures'], ['trend'], ['breakdowns'], ['leaderboard']]);
  });

  it('draws at once outside TakingTurns', () => {
    const { commits } = renderRecorded(
      <>
        <InTurn>
          <Part name="one" />
        </InTurn>
        <InTurn>
          <Part name="two" />
        </InTurn>
      </>,
    );
    expect(commits[0]).toEqual(['one', 'two']);
  });

  it('does not keep the next part waiting for one that left before its turn', async () => {
    let hide = () => {};
    function Leaving() {
      const [shown, setShown] = useState(true);
      hide = () => setShown(false);
      return shown ? (
        <InTurn>
          <Part name="left" />
        </InTurn>
      ) : null;
    }
    renderRecorded(
      <TakingTurns>
        <Leaving />
        <InTurn>
          <Part name="next" />
        </InTurn>
      </TakingTurns>,
    );
    act(() => hide());
    await flushIdle();
    expect(screen.queryByText('next')).not.toBeNull();
    expect(screen.queryByText('left')).toBeNull();
  });
});
