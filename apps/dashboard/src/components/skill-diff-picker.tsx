import { useId, useState } from 'react';
import type { SkillVersionSummary } from '../api/api-types.js';
import { diffHref } from '../router/hash-route.js';

/** Two lists of the run's skill versions, "from" and "to", and a link to the diff between the chosen two. */
export function SkillDiffPicker({ runName, versions, from, to }: { runName: string; versions: SkillVersionSummary[]; from: string; to: string }) {
  const [chosenFrom, setChosenFrom] = useState(from);
  const [chosenTo, setChosenTo] = useState(to);
  return (
    <div className="diff-picker">
      <VersionSelect label="From" testId="diff-from" versions={versions} chosen={chosenFrom} onChoose={setChosenFrom} />
      <VersionSelect label="To" testId="diff-to" versions={versions} chosen={chosenTo} onChoose={setChosenTo} />
      <a className="button" href={diffHref(runName, chosenFrom, chosenTo)} data-testid="diff-link">
        Show the diff
      </a>
    </div>
  );
}

interface VersionSelectProps {
  label: string;
  testId: string;
  versions: SkillVersionSummary[];
  chosen: string;
  onChoose: (id: string) => void;
}

function VersionSelect({ label, testId, versions, chosen, onChoose }: VersionSelectProps) {
  const id = useId();
  return (
    <span className="diff-picker-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={chosen} onChange={(event) => onChoose(event.target.value)} data-testid={testId}>
        {versions.map((version) => (
          <option key={version.id} value={version.id}>
            {version.id} — {version.label}
          </option>
        ))}
      </select>
    </span>
  );
}
