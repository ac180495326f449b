import { deepestWorkspaceIn } from '../src/sources/devin/workspace-in-text.js';

describe('the workspace a text names by its absolute path', () => {
  const workspaces = ['/home/dev/work/dutch-kis', '/home/dev/work/app', '/home/dev/work/app/service'];

  it('does not take a folder’s bare name as naming it (the original’s basename match)', () => {
    expect(deepestWorkspaceIn('Fix the failing NullPointerException in the dutch-kis project', workspaces)).toBeUndefined();
  });

  it('takes the whole path, or a file below it, and the deepest workspace named', () => {
    expect(deepestWorkspaceIn('cd /home/dev/work/dutch-kis && mvn test', workspaces)).toBe('/home/dev/work/dutch-kis');
    expect(deepestWorkspaceIn('edit /home/dev/work/app/src/main.ts', workspaces)).toBe('/home/dev/work/app');
    expect(deepestWorkspaceIn('see /home/dev/work/app/service/handler.go', workspaces)).toBe('/home/dev/work/app/service');
    expect(deepestWorkspaceIn('the tests pass in /home/dev/work/app.', workspaces)).toBe('/home/dev/work/app');
    expect(deepestWorkspaceIn('"cwd": "/home/dev/work/app"', ['/home/dev/work/app/'])).toBe('/home/dev/work/app');
  });

  it('does not take a longer folder name or a path below another root as naming it', () => {
    expect(deepestWorkspaceIn('open /home/dev/work/apple/readme', workspaces)).toBeUndefined();
    expect(deepestWorkspaceIn('open /home/dev/work/app.old/readme', workspaces)).toBeUndefined();
    expect(deepestWorkspaceIn('copy to /mnt/backup/home/dev/work/app/x', workspaces)).toBeUndefined();
    expect(deepestWorkspaceIn('open /home/dev/work/apple and then /home/dev/work/app/x', workspaces)).toBe('/home/dev/work/app');
  });
});
