import { startHarness } from './guildKit.js';
describe('x', () => { it('y', async () => { void startHarness; }); });
