import { readFileSync } from 'node:fs';
import path from 'node:path';
import { alfWorldItemMapper, createEnvironment, resolveGameFile, taskTypeOfGamePath } from '../src/index';
import { REPOSITORY_ROOT } from './helpers';

describe('ALFWorld items', () => {
  it("reads the original's split manifest as it is: 39 / 18 / 134 games, pick_and_place_simple as pick_and_place", async () => {
    const environment = createEnvironment({ split_dir: path.join(REPOSITORY_ROOT, 'datasets', 'alfworld', 'paper-split') });
    const sizes = await Promise.all((['train', 'val', 'test'] as const).map(async (split) => (await environment.loadSplit(split)).length));
    expect(sizes).toEqual([39, 18, 134]);
    const raw = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'datasets', 'alfworld', 'paper-split', 'train', 'items.json'), 'utf8')) as Array<{
      task_type: string;
    }>;
    expect(raw.some((item) => item.task_type === 'pick_and_place_simple')).toBe(true);
    const train = await environment.loadSplit('train');
    expect(new Set(train.map((item) => item.taskType))).toEqual(
      new Set([
        'pick_and_place',
        'pick_two_obj_and_place',
        'look_at_obj_in_light',
        'pick_heat_then_place_in_recep',
        'pick_cool_then_place_in_recep',
        'pick_clean_then_place_in_recep',
      ]),
    );
    expect(train[0]).toEqual({
      id: 'train:0000',
      taskType: 'look_at_obj_in_light',
      gamefile: expect.stringMatching(/^json_2\.1\.1\/train\/look_at_obj_in_light-AlarmClock/),
    });
  });

  it('takes the task type from the game path when the item has none, and refuses an unknown one', () => {
    expect(alfWorldItemMapper.parse({ id: 'a', gamefile: 'json_2.1.1/train/pick_two_obj_and_place-Cd-None-Shelf-1/t/game.tw-pddl' }).taskType).toBe(
      'pick_two_obj_and_place',
    );
    expect(taskTypeOfGamePath('json_2.1.1/train/pick_and_place_simple-Cd-None-Shelf-1/t/game.tw-pddl')).toBe('pick_and_place');
    expect(taskTypeOfGamePath('somewhere/else/game.tw-pddl')).toBe('other');
    expect(() => alfWorldItemMapper.parse({ id: 'a', gamefile: 'g', task_type: 'pick_and_juggle' })).toThrow(/not one of ALFWorld's six task types/);
    expect(() => alfWorldItemMapper.parse({ id: '../a', gamefile: 'g' })).toThrow(/must not contain/);
  });

  it('resolves a game file: absolute as given, else against data_root, else $ALFWORLD_DATA, with variables and ~ expanded', () => {
    const variables = { ALFWORLD_DATA: '/data/alfworld', SCRATCH: '/scratch' };
    expect(resolveGameFile('/abs/game.tw-pddl', '', variables, '/home/me')).toBe('/abs/game.tw-pddl');
    expect(resolveGameFile('json_2.1.1/g.tw-pddl', '', variables, '/home/me')).toBe('/data/alfworld/json_2.1.1/g.tw-pddl');
    expect(resolveGameFile('json_2.1.1/g.tw-pddl', '~/alfworld', variables, '/home/me')).toBe('/home/me/alfworld/json_2.1.1/g.tw-pddl');
    // A shell-style variable in a path, as the original's manifests allow.
    expect(resolveGameFile(['$', '{SCRATCH}/g.tw-pddl'].join(''), '', variables, '/home/me')).toBe('/scratch/g.tw-pddl');
    expect(resolveGameFile('json_2.1.1/g.tw-pddl', '', {}, '/home/me')).toBeUndefined();
  });
});
