import { ERROR_CODES, type GenerateRequest, SkillOptError } from '@skillopt/contract';
import { acceptGenerateRequest } from '../src/generate-request';

const MESSAGES = [{ role: 'user' as const, content: 'What is 2+2?' }];

describe('acceptGenerateRequest', () => {
  it('keeps the request and turns fields the contract does not know into warnings', () => {
    const received = { messages: MESSAGES, purpose: 'rollout', seedOfTomorrow: 7 } as unknown as GenerateRequest;
    const { request, warnings } = acceptGenerateRequest(received, 'codex gpt-5');
    expect(request.messages).toEqual(MESSAGES);
    expect(request).not.toHaveProperty('seedOfTomorrow');
    expect(warnings).toEqual([expect.objectContaining({ type: 'unknown-field', field: 'seedOfTomorrow' })]);
  });

  it('throws an internal error naming the model for a field of the wrong type', () => {
    const received = { messages: 'not a list', purpose: 'rollout' } as unknown as GenerateRequest;
    let thrown: unknown;
    try {
      acceptGenerateRequest(received, 'claude-code sonnet');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SkillOptError);
    expect(thrown).toMatchObject({ code: ERROR_CODES.dataInvalid, category: 'internal' });
    expect((thrown as Error).message).toMatch(/^claude-code sonnet: an invalid generate request: .*messages/);
  });
});
