import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

const PLACEHOLDER = /\{\{([A-Za-z][A-Za-z0-9]*)\}\}/g;

/** The placeholder names a template uses, each once, in order of first use. */
export function templatePlaceholders(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] as string;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Fills `{{name}}` placeholders in one pass, so a value that itself contains `{{…}}` (a skill, a
 * trajectory) is inserted verbatim and never rendered again. A placeholder without a value, or a
 * value without a placeholder, is a programming error and throws: a prompt that silently lost a
 * section would degrade every run without anyone noticing.
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const used = templatePlaceholders(template);
  const missing = used.filter((name) => !Object.hasOwn(values, name));
  const unknown = Object.keys(values).filter((name) => !used.includes(name));
  if (missing.length > 0 || unknown.length > 0) {
    const problems = [
      ...(missing.length > 0 ? [`no value for ${missing.map((name) => `{{${name}}}`).join(', ')}`] : []),
      ...(unknown.length > 0 ? [`no placeholder for ${unknown.join(', ')}`] : []),
    ];
    throw new SkillOptError({ code: ERROR_CODES.internal, category: 'internal', message: `prompt template: ${problems.join('; ')}` });
  }
  return template.replace(PLACEHOLDER, (_whole, name: string) => values[name] as string);
}
