import { OPTIMIZER_PROMPTS } from '@skillopt/contract';
import { PROMPT_TEMPLATES, renderTemplate, templatePlaceholders } from '../src/index';

describe('renderTemplate', () => {
  test('fills placeholders in one pass; values are inserted verbatim', () => {
    expect(renderTemplate('Hi {{name}}, {{name}}! {{body}}', { name: 'Ada', body: 'literal {{name}}' })).toBe('Hi Ada, Ada! literal {{name}}');
  });

  test('a placeholder without a value is an error', () => {
    expect(() => renderTemplate('Hi {{name}}', {})).toThrow(/no value for \{\{name\}\}/);
  });

  test('a value without a placeholder is an error', () => {
    expect(() => renderTemplate('Hi', { name: 'Ada' })).toThrow(/no placeholder for name/);
  });
});

describe('prompt templates', () => {
  test.each(OPTIMIZER_PROMPTS.map((prompt) => [prompt]))('%s is a markdown template that states its JSON shape', (stage) => {
    const template = PROMPT_TEMPLATES[stage];
    expect(template.length).toBeGreaterThan(200);
    expect(template).toMatch(/Reply with one JSON object and nothing else/);
    expect(templatePlaceholders(template).length).toBeGreaterThan(0);
  });
});
