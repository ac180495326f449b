/** A moment as it starts a file or folder name: `20261204-190827` (UTC), sorting in time order. */
export function fileNameTime(moment: Date): string {
  return moment.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
}
