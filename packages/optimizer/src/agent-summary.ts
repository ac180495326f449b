import type { Edit } from '@skillopt/contract';

/**
 * The agent optimizer's closing message, read for the reasons of its changes: it is asked for one
 * line per change, "- `<first words of the text>`: <why>". Each edit takes the reason of the line
 * whose quoted words its text contains; an edit no line names takes the summary as a whole, so no
 * edit reaches the ranking without the agent's own words.
 */

interface SummaryLine {
  quoted: string;
  reason: string;
}

const SUMMARY_LINE = /^\s*(?:[-*+]|\d+[.)])\s+`([^`\n]+)`\s*(?::|—|–|-)+\s*(.+?)\s*$/;
const MAXIMUM_REASON_CHARACTERS = 400;
/** Quoted words shorter than this say too little to pick an edit out. */
const MINIMUM_QUOTED_CHARACTERS = 4;

function comparable(text: string): string {
  return text
    .toLowerCase()
    .replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6})\s+/gm, '')
    .replace(/[`*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function shortened(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAXIMUM_REASON_CHARACTERS ? `${oneLine.slice(0, MAXIMUM_REASON_CHARACTERS - 3)}...` : oneLine;
}

function summaryLinesOf(finalText: string): SummaryLine[] {
  return finalText.split('\n').flatMap((line) => {
    const match = SUMMARY_LINE.exec(line);
    return match ? [{ quoted: comparable(match[1] as string), reason: (match[2] as string).trim() }] : [];
  });
}

/** The edits with their `rationale` taken from the agent's summary. */
export function withAgentRationales(edits: readonly Edit[], finalText: string): Edit[] {
  const lines = summaryLinesOf(finalText).filter((line) => line.quoted.length >= MINIMUM_QUOTED_CHARACTERS);
  const whole = finalText.trim() === '' ? 'The agent made this change and gave no reason.' : `The agent's summary of its changes: ${shortened(finalText)}`;
  return edits.map((edit) => {
    // A removal is named by the text it removed; anything else by the text it writes.
    const own = comparable(edit.op === 'delete' ? (edit.target ?? '') : (edit.content ?? ''));
    const named = lines.find((line) => own.includes(line.quoted));
    return { ...edit, rationale: named === undefined ? whole : shortened(named.reason) };
  });
}
