import { backendOf, translateBackendName } from '../../src/config/original-format/backend-names.js';

describe("the sleep engine's names of its Pi backend", () => {
  it.each(['pi_cli', 'pi_coding_agent', 'pi-coding-agent', ' PI_CLI '])('sends %s to the pi package', (name) => {
    expect(translateBackendName(name)).toEqual({ id: 'pi', original: 'pi' });
  });

  it('keeps pi itself as ours, untranslated', () => {
    expect(translateBackendName('pi')).toBeUndefined();
    expect(backendOf('pi')).toEqual({ id: 'pi', original: 'pi' });
  });
});
