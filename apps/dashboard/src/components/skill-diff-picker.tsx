import { useId, useState } from 'react';
import type { SkillVersionSummary } from '../api/api-types.js';
import { diffHref } from '../router/hash-route.js';

/** Two lists of the run's skill versions, "from" and "to", and a link to the diff between the chosen two. */
export function SkillDiffPicker({ runName, versions, from, to }: { runName: string; versions: SkillVersionSummary[]; from: string; to: string }) {
  const fromId = useId();
  const toId = useId();
  const [chosenFrom, setChosenFrom] = useState(from);
  const [chosenTo, setChosenTo] = useState(to);
  return (
    <div className="diff-picker">
      <span className="diff-picker-field">
        <label htmlFor={fromId}>From</label>
        <select id={fromId} value={chosenFrom} onChange={(event) => setChosenFrom(event.target.value)} data-testid="diff-from">
          {versions.map((version) => (
            <option key={version.id} value={version.id}>
              {version.id} — {version.label}
            </option>
          ))}
        </select>
      </span>
      <span className="diff-picker-field">
        <label htmlFor={toId}>To</label>
        <select id={toId} value={chosenTo} onChange={(event) => setChosenTo(event.target.value)} data-testid="diff-to">
          {versions.map((version) => (
            <option key={version.id} value={version.id}>
              {version.id} — {version.label}
            </option>
          ))}
        </select>
      </span>
      <a className="button" href={diffHref(runName, chosenFrom, chosenTo)} data-testid="diff-link">
        Show the diff
      </a>
    </div>
  );
}
