import { javaStepsSuite } from './javaStepsSuite.js';

// Discord4J (Java, from Maven Central), configured only by the Discord base URL of its router options;
// it takes the gateway URL from GET /gateway (test/clients/discord4j/).
javaStepsSuite({ library: 'Discord4J', project: 'discord4j', mainClass: 'chorus.clients.Discord4jSteps' });
