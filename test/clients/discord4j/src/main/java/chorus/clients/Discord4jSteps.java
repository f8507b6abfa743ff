package chorus.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import discord4j.common.util.Snowflake;
import discord4j.core.DiscordClient;
import discord4j.core.DiscordClientBuilder;
import discord4j.core.GatewayDiscordClient;
import discord4j.core.event.domain.guild.GuildCreateEvent;
import discord4j.core.event.domain.message.MessageCreateEvent;
import discord4j.core.object.PermissionOverwrite;
import discord4j.core.object.emoji.Emoji;
import discord4j.core.object.entity.Guild;
import discord4j.core.object.entity.Message;
import discord4j.core.object.entity.Role;
import discord4j.core.object.entity.channel.TextChannel;
import discord4j.core.spec.MessageCreateSpec;
import discord4j.core.spec.MessageEditSpec;
import discord4j.core.spec.RoleCreateSpec;
import discord4j.discordjson.json.ApplicationCommandData;
import discord4j.discordjson.json.ApplicationCommandRequest;
import discord4j.discordjson.json.MessageReferenceData;
import discord4j.gateway.intent.Intent;
import discord4j.gateway.intent.IntentSet;
import discord4j.rest.request.RouterOptions;
import discord4j.rest.util.PermissionSet;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * Drives an unmodified Discord4J bot against a Chorus server, for test/clients/discord4j.test.ts.
 * Discord4J is told only its REST base URL (the router options' Discord base URL, set through the
 * builder's setExtraOptions); it finds the gateway through GET /gateway as it does on Discord. Reads
 * and prints what javaStepsSuite.ts describes: one JSON line per step, then {"step": "done"}.
 */
public final class Discord4jSteps {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final JsonNode plan;
  private final Snowflake guildId = Snowflake.of(System.getenv("GUILD_ID"));
  private final Snowflake channelId = Snowflake.of(System.getenv("CHANNEL_ID"));
  private final String personId = System.getenv("PERSON_ID");

  private Discord4jSteps() throws Exception {
    plan = JSON.readTree(System.getenv("PLAN"));
  }

  public static void main(String[] args) throws Exception {
    Discord4jSteps steps = new Discord4jSteps();
    GatewayDiscordClient gateway = null;
    try {
      gateway = steps.login();
      if (gateway != null) steps.run(gateway);
    } finally {
      if (gateway != null) gateway.logout().block(WAIT);
      print(JSON.createObjectNode().put("step", "done"));
      System.exit(0);
    }
  }

  private GatewayDiscordClient login() {
    String apiBase = System.getenv("CHORUS_API");
    DiscordClient client =
        DiscordClientBuilder.create(System.getenv("BOT_TOKEN"))
            .setExtraOptions(
                options ->
                    new RouterOptions(
                        options.getToken(),
                        options.getReactorResources(),
                        options.getExchangeStrategies(),
                        options.getResponseTransformers(),
                        options.getGlobalRateLimiter(),
                        options.getRequestQueueFactory(),
                        apiBase))
            .build();
    return step(
        "login",
        () ->
            client
                .gateway()
                .setEnabledIntents(
                    IntentSet.of(
                        Intent.GUILDS, Intent.GUILD_MESSAGES, Intent.GUILD_MESSAGE_REACTIONS, Intent.MESSAGE_CONTENT))
                .login()
                .block(WAIT),
        gateway -> JSON.createObjectNode());
  }

  private void run(GatewayDiscordClient gateway) {
    // Subscribed before "ready" is printed: the person posts once they see that line.
    CompletableFuture<Message> fromPerson =
        gateway
            .on(MessageCreateEvent.class)
            .map(MessageCreateEvent::getMessage)
            .filter(m -> m.getAuthor().map(u -> u.getId().asString().equals(personId)).orElse(false))
            .next()
            .toFuture();
    Guild guild =
        step(
            "ready",
            () ->
                gateway
                    .on(GuildCreateEvent.class)
                    .map(GuildCreateEvent::getGuild)
                    .filter(g -> g.getId().equals(guildId))
                    .next()
                    .block(WAIT),
            created -> describeReady(gateway, created));
    Message message =
        step(
            "message",
            () -> fromPerson.get(WAIT.toSeconds(), TimeUnit.SECONDS),
            received -> line().put("id", received.getId().asString()).put("content", received.getContent()));
    Message reply = message == null ? skipped("reply", "no message arrived") : reply(message);
    if (reply == null) skipped("edit", "no reply was sent");
    else
      step(
          "edit",
          () -> reply.edit(MessageEditSpec.builder().contentOrNull(text("editedContent")).build()).block(WAIT),
          edited -> line().put("content", edited.getContent()));
    if (message == null) skipped("react", "no message arrived");
    else
      step(
          "react",
          () -> message.addReaction(Emoji.unicode(text("reaction"))).then(Mono.just(true)).block(WAIT),
          done -> line());
    Role role =
        guild == null
            ? skipped("role", "no guild")
            : step(
                "role",
                () ->
                    guild
                        .createRole(
                            RoleCreateSpec.builder()
                                .name(text("roleName"))
                                .permissions(PermissionSet.of(bits("rolePermissions")))
                                .build())
                        .block(WAIT),
                created -> line().put("id", created.getId().asString()));
    if (role == null) skipped("overwrite", "no role");
    else
      step(
          "overwrite",
          () ->
              gateway
                  .getChannelById(channelId)
                  .ofType(TextChannel.class)
                  .flatMap(
                      channel ->
                          channel.addRoleOverwrite(
                              role.getId(),
                              PermissionOverwrite.forRole(
                                  role.getId(),
                                  PermissionSet.of(bits("overwriteAllow")),
                                  PermissionSet.of(bits("overwriteDeny")))))
                  .then(Mono.just(true))
                  .block(WAIT),
          done -> line());
    step(
        "command",
        () ->
            gateway
                .getRestClient()
                .getApplicationId()
                .flatMap(
                    applicationId ->
                        gateway
                            .getRestClient()
                            .getApplicationService()
                            .createGuildApplicationCommand(
                                applicationId,
                                guildId.asLong(),
                                ApplicationCommandRequest.builder()
                                    .name(text("commandName"))
                                    .description(text("commandDescription"))
                                    .build()))
                .block(WAIT),
        (ApplicationCommandData command) -> line().put("id", command.id().asString()));
  }

  private Message reply(Message message) {
    return step(
        "reply",
        () ->
            message
                .getChannel()
                .flatMap(
                    channel ->
                        channel.createMessage(
                            MessageCreateSpec.builder()
                                .content(text("replyContent"))
                                .messageReference(
                                    MessageReferenceData.builder()
                                        .messageId(message.getId().asString())
                                        .build())
                                .build()))
                .block(WAIT),
        sent -> line().put("id", sent.getId().asString()).put("content", sent.getContent()));
  }

  private ObjectNode describeReady(GatewayDiscordClient gateway, Guild guild) {
    var self = gateway.getSelf().block(WAIT);
    boolean hasChannel =
        guild.getChannels().filter(channel -> channel.getId().equals(channelId)).hasElements().block(WAIT);
    return line()
        .put("botId", self == null ? null : self.getId().asString())
        .put("isBot", self != null && self.isBot())
        .put("guildName", guild.getName())
        .put("hasChannel", hasChannel);
  }

  private String text(String key) {
    return plan.get(key).asText();
  }

  /** A permission bitfield of the plan (decimal strings, as on the wire). */
  private long bits(String key) {
    return Long.parseLong(text(key));
  }

  private static ObjectNode line() {
    return JSON.createObjectNode();
  }

  /** Runs one step, prints its line and returns its result (null when it failed). */
  private static <T> T step(String name, ThrowingSupplier<T> action, Function<T, ObjectNode> report) {
    try {
      T result = action.get();
      if (result == null) throw new IllegalStateException("nothing within " + WAIT);
      print(report.apply(result).put("step", name).put("ok", true));
      return result;
    } catch (Throwable error) {
      print(line().put("step", name).put("ok", false).put("error", String.valueOf(error)));
      return null;
    }
  }

  private static <T> T skipped(String name, String why) {
    print(line().put("step", name).put("ok", false).put("error", "skipped: " + why));
    return null;
  }

  private static synchronized void print(ObjectNode line) {
    System.out.println(line.toString());
    System.out.flush();
  }

  /** An action that may throw (blocking on a Mono or a future does). */
  @FunctionalInterface
  private interface ThrowingSupplier<T> {
    T get() throws Exception;
  }
}
