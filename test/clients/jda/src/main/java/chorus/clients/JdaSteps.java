package chorus.clients;

import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import net.dv8tion.jda.api.JDA;
import net.dv8tion.jda.api.entities.Guild;
import net.dv8tion.jda.api.entities.Message;
import net.dv8tion.jda.api.entities.Role;
import net.dv8tion.jda.api.entities.channel.concrete.TextChannel;
import net.dv8tion.jda.api.entities.emoji.Emoji;
import net.dv8tion.jda.api.events.session.ReadyEvent;
import net.dv8tion.jda.api.events.message.MessageReceivedEvent;
import net.dv8tion.jda.api.hooks.ListenerAdapter;
import net.dv8tion.jda.api.interactions.commands.Command;
import net.dv8tion.jda.api.interactions.commands.build.Commands;
import net.dv8tion.jda.api.requests.GatewayIntent;
import net.dv8tion.jda.api.requests.RestConfig;
import net.dv8tion.jda.api.sharding.DefaultShardManagerBuilder;
import net.dv8tion.jda.api.sharding.ShardManager;
import net.dv8tion.jda.api.utils.data.DataObject;

/**
 * Drives an unmodified JDA bot against a Chorus server, for test/clients/jda.test.ts. JDA is told only
 * its REST base URL (RestConfig.setBaseUrl); its shard manager finds the gateway through
 * GET /gateway/bot as it does on Discord. Reads CHORUS_API (e.g. http://127.0.0.1:PORT/api/v10/),
 * BOT_TOKEN, GUILD_ID, CHANNEL_ID, PERSON_ID and PLAN (the JSON of the test's Plan); prints one JSON
 * line per step, {"step", "ok": true, ...} or {"step", "ok": false, "error"}, then {"step": "done"}.
 * A failed step does not stop the ones after it unless they need its result.
 */
public final class JdaSteps {
  private static final long READY_WAIT_SECONDS = 20;
  private static final long MESSAGE_WAIT_SECONDS = 15;

  private final DataObject plan = DataObject.fromJson(System.getenv("PLAN"));
  private final String guildId = System.getenv("GUILD_ID");
  private final String channelId = System.getenv("CHANNEL_ID");
  private final String personId = System.getenv("PERSON_ID");
  private final CompletableFuture<JDA> ready = new CompletableFuture<>();
  private final CompletableFuture<Message> fromPerson = new CompletableFuture<>();

  public static void main(String[] args) {
    JdaSteps steps = new JdaSteps();
    ShardManager shards = steps.start();
    try {
      steps.run();
    } finally {
      shards.shutdown();
      print(DataObject.empty().put("step", "done"));
      System.exit(0);
    }
  }

  /**
   * A shard manager, so the gateway URL and shard count come from GET /gateway/bot. (A plain
   * JDABuilder would not ask: its single shard dials SessionController#getGateway, a constant.)
   */
  private ShardManager start() {
    return DefaultShardManagerBuilder.createLight(
            System.getenv("BOT_TOKEN"),
            EnumSet.of(
                GatewayIntent.GUILD_MESSAGES,
                GatewayIntent.GUILD_MESSAGE_REACTIONS,
                GatewayIntent.MESSAGE_CONTENT))
        .setRestConfig(new RestConfig().setBaseUrl(System.getenv("CHORUS_API")))
        .addEventListeners(
            new ListenerAdapter() {
              @Override
              public void onReady(ReadyEvent event) {
                ready.complete(event.getJDA());
              }

              @Override
              public void onMessageReceived(MessageReceivedEvent event) {
                if (event.getAuthor().getId().equals(personId)) fromPerson.complete(event.getMessage());
              }
            })
        .build();
  }

  private void run() {
    JDA jda = step("ready", () -> ready.get(READY_WAIT_SECONDS, TimeUnit.SECONDS), this::describeReady);
    if (jda == null) return;
    Message message =
        step(
            "message",
            () -> fromPerson.get(MESSAGE_WAIT_SECONDS, TimeUnit.SECONDS),
            received -> DataObject.empty().put("id", received.getId()).put("content", received.getContentRaw()));
    Message reply =
        message == null
            ? skipped("reply", "no message arrived")
            : step(
                "reply",
                () -> message.reply(plan.getString("replyContent")).complete(),
                sent -> DataObject.empty().put("id", sent.getId()).put("content", sent.getContentRaw()));
    if (reply == null) skipped("edit", "no reply was sent");
    else
      step(
          "edit",
          () -> reply.editMessage(plan.getString("editedContent")).complete(),
          edited -> DataObject.empty().put("content", edited.getContentRaw()));
    if (message == null) skipped("react", "no message arrived");
    else
      step(
          "react",
          () -> message.addReaction(Emoji.fromUnicode(plan.getString("reaction"))).complete(),
          nothing -> DataObject.empty());
    Guild guild = jda.getGuildById(guildId);
    Role role = guild == null ? skipped("role", "no guild") : createRole(guild);
    TextChannel channel = jda.getTextChannelById(channelId);
    if (role == null || channel == null) skipped("overwrite", "no role or no channel");
    else
      step(
          "overwrite",
          () ->
              channel
                  .upsertPermissionOverride(role)
                  .setPermissions(bits("overwriteAllow"), bits("overwriteDeny"))
                  .complete(),
          override -> DataObject.empty());
    if (guild == null) skipped("command", "no guild");
    else
      step(
          "command",
          () ->
              guild
                  .upsertCommand(Commands.slash(plan.getString("commandName"), plan.getString("commandDescription")))
                  .complete(),
          (Command command) -> DataObject.empty().put("id", command.getId()));
  }

  private DataObject describeReady(JDA jda) {
    Guild guild = jda.getGuildById(guildId);
    return DataObject.empty()
        .put("botId", jda.getSelfUser().getId())
        .put("isBot", jda.getSelfUser().isBot())
        .put("guildName", guild == null ? null : guild.getName())
        .put("hasChannel", guild != null && guild.getTextChannelById(channelId) != null);
  }

  private Role createRole(Guild guild) {
    return step(
        "role",
        () -> guild.createRole().setName(plan.getString("roleName")).setPermissions(bits("rolePermissions")).complete(),
        created -> DataObject.empty().put("id", created.getId()));
  }

  /** A permission bitfield of the plan (decimal strings, as on the wire). */
  private long bits(String key) {
    return Long.parseLong(plan.getString(key));
  }

  /** Runs one step, prints its line and returns its result (null when it failed). */
  private static <T> T step(String name, ThrowingSupplier<T> action, Function<T, DataObject> report) {
    try {
      T result = action.get();
      print(report.apply(result).put("step", name).put("ok", true));
      return result;
    } catch (Throwable error) {
      print(DataObject.empty().put("step", name).put("ok", false).put("error", String.valueOf(error)));
      return null;
    }
  }

  private static <T> T skipped(String name, String why) {
    print(DataObject.empty().put("step", name).put("ok", false).put("error", "skipped: " + why));
    return null;
  }

  private static synchronized void print(DataObject line) {
    System.out.println(line.toString());
    System.out.flush();
  }

  /** An action that may throw (JDA's complete() and the waits do). */
  @FunctionalInterface
  private interface ThrowingSupplier<T> {
    T get() throws Exception;
  }
}
