import { javaStepsSuite } from './javaStepsSuite.js';

// JDA (Java, from Maven Central), configured only by RestConfig.setBaseUrl; its shard manager takes
// the gateway URL from GET /gateway/bot (test/clients/jda/).
javaStepsSuite({ library: 'JDA', project: 'jda', mainClass: 'chorus.clients.JdaSteps' });
