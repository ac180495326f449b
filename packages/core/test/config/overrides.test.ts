import { SkillOptError } from '@skillopt/contract';
import { applyOverrides, castOverrideValue, parseOverride } from '../../src/config/index.js';

describe('castOverrideValue: the original casting', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['Yes', true],
    ['false', false],
    ['no', false],
    ['NO', false],
    ['2', 2],
    ['-3', -3],
    ['1_000', 1000],
    ['0.5', 0.5],
    ['1e-3', 0.001],
    ['.25', 0.25],
    ['cosine', 'cosine'],
    ['gpt-5.5', 'gpt-5.5'],
    ['2:1:7', '2:1:7'],
    ['', ''],
    ['data/searchqa split', 'data/searchqa split'],
  ])('%j → %j', (text, expected) => {
    expect(castOverrideValue(text)).toEqual(expected);
  });
});

describe('castOverrideValue: YAML flow values', () => {
  it.each([
    ['[1, 2]', [1, 2]],
    ['[item-1,item-2]', ['item-1', 'item-2']],
    ['{max_calls: 10}', { max_calls: 10 }],
    ['null', null],
    ['~', null],
    ['"42"', '42'],
    ["'yes'", 'yes'],
    ['""', ''],
  ])('%j → %j', (text, expected) => {
    expect(castOverrideValue(text)).toEqual(expected);
  });

  it('says so when a flow value is malformed', () => {
    expect(() => castOverrideValue('[1, 2', 'evaluation.must_pass=[1, 2')).toThrow(/override "evaluation.must_pass=\[1, 2": the value is not valid YAML/);
  });
});

describe('parseOverride', () => {
  it('splits on the first "=" and keeps the rest of the value', () => {
    expect(parseOverride('env.data_path=a=b.json')).toEqual({ text: 'env.data_path=a=b.json', path: ['env', 'data_path'], value: 'a=b.json' });
  });

  it('refuses an override without "=" with an example of the syntax', () => {
    let caught: unknown;
    try {
      parseOverride('train.num_epochs');
    } catch (error) {
      caught = error;
    }
    expect(SkillOptError.isInstance(caught)).toBe(true);
    expect((caught as SkillOptError).code).toBe('config-invalid');
    expect((caught as SkillOptError).message).toBe(
      'override "train.num_epochs" has no "=": write key=value, e.g. train.num_epochs=2 or evaluation.must_pass=[item-1,item-2]',
    );
  });

  it('refuses an empty key or an empty segment', () => {
    expect(() => parseOverride('=3')).toThrow(/empty key/);
    expect(() => parseOverride('train..seed=3')).toThrow(/empty part/);
  });

  it("puts the original's undotted flat names into their sections, as its --cfg-options did", () => {
    expect(parseOverride('edit_budget=3').path).toEqual(['optimizer', 'learning_rate']);
    expect(parseOverride('num_epochs=2').path).toEqual(['train', 'num_epochs']);
    expect(parseOverride('env=livemathematicianbench').path).toEqual(['env', 'name']);
    expect(parseOverride('azure_openai_endpoint=https://x').path).toEqual(['model', 'azure_openai_endpoint']);
    expect(parseOverride('mystery=1').path).toEqual(['mystery']);
  });
});

describe('applyOverrides', () => {
  it('sets dotted keys in order, creating sections, without touching the input', () => {
    const config = { train: { num_epochs: 4, seed: 42 } };
    const result = applyOverrides(config, ['train.num_epochs=2', 'evaluation.gate_metric=soft', 'train.num_epochs=3', 'budget.target.max_usd=1.5']);
    expect(result).toEqual({
      train: { num_epochs: 3, seed: 42 },
      evaluation: { gate_metric: 'soft' },
      budget: { target: { max_usd: 1.5 } },
    });
    expect(config.train.num_epochs).toBe(4);
  });

  it('replaces a mapping whole when the override value is one', () => {
    expect(applyOverrides({ backends: { openai: { preset: 'azure', endpoint: 'x' } } }, ['backends.openai={preset: qwen}'])).toEqual({
      backends: { openai: { preset: 'qwen' } },
    });
  });
});

describe('secrets in overrides', () => {
  it('never repeats a secret given on the command line in a message', () => {
    expect(() => parseOverride('backends.openai.api_key=[sk-abcdefghijklmnopqrstu')).toThrow(
      'override "backends.openai.api_key=[redacted]": the value is not valid YAML',
    );
    expect(() => parseOverride('Bearer abcdefghijklmnop')).toThrow('override "Bearer [redacted]" has no "="');
  });
});
