import assert from 'node:assert/strict';
import {
  assertEditedReply,
  assertGuildCommand,
  assertReaction,
  assertReply,
  assertRole,
  assertRoleOverwrite,
  personPosts,
  Plan,
  startClientWorld,
  type ClientWorld,
} from './clientKit.js';
import { buildJavaProgram, runJavaSteps, type StepLine, type StepsRun } from './javaStepsRunner.js';

/** A Java bot program: test/clients/`project` (Maven) whose `mainClass` prints one JSON line per step. */
export interface JavaBot {
  readonly library: string;
  readonly project: string;
  readonly mainClass: string;
}

/**
 * The client-library steps for a Java library, run as one program against a fresh world. The program
 * reads CHORUS_API, BOT_TOKEN, GUILD_ID, CHANNEL_ID, PERSON_ID and PLAN, and prints the steps ready
 * (botId, isBot, guildName, hasChannel), message (id, content), reply (id, content), edit (content),
 * react, role (id), overwrite, command (id), then done; a failed step prints ok false and its error.
 */
export function javaStepsSuite(bot: JavaBot): void {
  describe(`${bot.library} against Chorus`, function () {
    // A cold Maven cache downloads the library and three plugins (tens of MB) in this hook.
    this.timeout(180_000);
    let world: ClientWorld;
    let run: StepsRun;
    let userMessageId: string | undefined;

    before(async () => {
      const classpath = await buildJavaProgram(bot.project);
      world = await startClientWorld(bot.library);
      run = await runJavaSteps(
        classpath,
        bot.mainClass,
        {
          CHORUS_API: `${world.origin}/api/v10/`,
          BOT_TOKEN: world.botToken,
          GUILD_ID: world.guildId,
          CHANNEL_ID: world.channelId,
          PERSON_ID: world.person.id,
          PLAN: JSON.stringify(Plan),
        },
        {
          // The person talks once the bot is ready, as a person in the channel would.
          ready: async () => {
            userMessageId = (await personPosts(world)).id;
          },
        },
      );
    });

    after(async () => {
      await world.stop();
    });

    /** The line of `name`, which must report success. */
    function passed(name: string): StepLine {
      const line = run.steps.get(name);
      const printed = [...run.steps.values()].map((each) => JSON.stringify(each)).join('\n');
      assert.ok(line, `no "${name}" step (exit ${run.exitCode}); printed:\n${printed}\nstderr:\n${run.stderrTail}`);
      assert.equal(line.ok, true, `${name}: ${line.error ?? ''}`);
      return line;
    }

    it('logs the bot in and has its guild in the cache once ready', () => {
      const ready = passed('ready');
      assert.equal(ready.isBot, true);
      assert.equal(ready.guildName, world.guildName);
      assert.equal(ready.hasChannel, true);
    });

    it("receives the person's message with its content", () => {
      const message = passed('message');
      assert.equal(message.id, userMessageId);
      assert.equal(message.content, Plan.userContent);
    });

    it('replies to the message', async () => {
      const reply = passed('reply');
      assert.equal(reply.content, Plan.replyContent);
      assert.ok(userMessageId);
      // Read after the whole run, so the content may be the edited one: the edit step checks that.
      await assertReply(world, String(reply.id), userMessageId);
    });

    it('edits its reply', async () => {
      assert.equal(passed('edit').content, Plan.editedContent);
      await assertEditedReply(world, String(passed('reply').id));
    });

    it("reacts to the person's message", async () => {
      passed('react');
      assert.ok(userMessageId);
      await assertReaction(world, userMessageId, String(passed('ready').botId));
    });

    it('creates a role with permissions', async () => {
      await assertRole(world, String(passed('role').id));
    });

    it('sets a permission overwrite for the role on a channel', async () => {
      passed('overwrite');
      await assertRoleOverwrite(world, String(passed('role').id));
    });

    it('registers a guild slash command', async () => {
      await assertGuildCommand(world, String(passed('command').id));
    });

    it('shuts down by itself after its steps', () => {
      assert.ok(run.steps.has('done'), run.stderrTail);
      assert.equal(run.exitCode, 0);
    });
  });
}
