// Colours of the charts' series on the white page: each at least 4.5:1 against it, so the legend's
// coloured shapes read as well as its text.
export const CHART_COLOURS = {
  current: '#1f5fa8',
  best: '#6b3fa0',
  accepted: '#17753c',
  rejected: '#b3261e',
  learningRate: '#8a4b08',
  skillLength: '#1f5fa8',
  cost: '#17753c',
} as const;
