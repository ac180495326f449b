import { projectSlug, slugFolderMayHold } from '../src/sources/claude-code/project-slug.js';

describe('Claude Code’s project slug folders', () => {
  test('a folder’s slug replaces every character that is not a letter or digit with a dash', () => {
    expect(projectSlug('/home/user/project')).toBe('-home-user-project');
    expect(projectSlug('/home/user/my.app_v2')).toBe('-home-user-my-app-v2');
    expect(projectSlug('C:\\Users\\dev\\repo')).toBe('C--Users-dev-repo');
  });

  test('a slug folder may hold the project or a folder below it, and nothing else', () => {
    const scope = ['/home/user/project'];
    expect(slugFolderMayHold('-home-user-project', scope)).toBe(true);
    expect(slugFolderMayHold('-home-user-project-sub', scope)).toBe(true);
    expect(slugFolderMayHold('-home-user', scope)).toBe(false);
    expect(slugFolderMayHold('-home-user-projects', scope)).toBe(false);
    expect(slugFolderMayHold('-home-user-other', scope)).toBe(false);
  });

  test('the file-system root, and names Claude Code shortens, rule nothing out', () => {
    expect(slugFolderMayHold('-home-user', ['/'])).toBe(true);
    expect(slugFolderMayHold(`-${'a'.repeat(210)}`, ['/home/user/project'])).toBe(true);
  });
});
