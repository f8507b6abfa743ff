import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The JDK's own HTTP client, as JDA-free Java code uses it: HTTP/2 preferred, so on an http:// URL every
 * request carries `Upgrade: h2c`. Args: the API base URL and a JSON registration body. Prints one line per
 * request: the protocol version, the status and the body.
 */
public class JdkHttpClient {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        String base = args[0];
        HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/gateway")).GET().build();
        print(client.send(get, HttpResponse.BodyHandlers.ofString()));
        HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/auth/register"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(args[1]))
                .build();
        print(client.send(post, HttpResponse.BodyHandlers.ofString()));
    }

    private static void print(HttpResponse<String> response) {
        System.out.println(response.version() + " " + response.statusCode() + " " + response.body());
    }
}
