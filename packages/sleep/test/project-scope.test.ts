import { isInScope, projectScope } from '../src/harvest/project-scope';

describe('which project a session belongs to', () => {
  const scope = projectScope(['/home/user/project']);

  it('takes sessions in the project and below it', () => {
    expect(isInScope(scope, '/home/user/project')).toBe(true);
    expect(isInScope(scope, '/home/user/project/packages/api')).toBe(true);
    expect(isInScope(scope, '/home/user/project/')).toBe(true);
  });

  it('does not take a session started in $HOME or / for every project (the original did)', () => {
    expect(isInScope(scope, '/home/user')).toBe(false);
    expect(isInScope(scope, '/')).toBe(false);
    expect(isInScope(scope, '/home/user/project-other')).toBe(false);
  });

  it('takes a $HOME session only into a scope that names $HOME, and a session without a folder only into "all"', () => {
    expect(isInScope(projectScope(['/home/user']), '/home/user')).toBe(true);
    expect(isInScope(scope, '')).toBe(false);
    expect(isInScope(projectScope('all'), '')).toBe(true);
  });
});
