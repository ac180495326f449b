import { expectHelp, manifestCommands } from './helpers/help-manifest';

describe('--help', () => {
  it('lists every command', () => {
    expect(Object.keys(manifestCommands()).sort()).toEqual([
      'config:print',
      'demo',
      'doctor',
      'env:new',
      'eval',
      'init',
      'runs:diff',
      'runs:list',
      'runs:show',
      'sim:serve',
      'train',
    ]);
  });

  it.each(Object.keys(manifestCommands()))('has a summary, a description and examples for %s', (commandId) => {
    expectHelp(commandId, []);
  });
});
