/*
 * LoopbackProxy starts ShardingSphere-Proxy 5.1.0 bound to one address
 * (127.0.0.1 by default). The stock org.apache.shardingsphere.proxy.Bootstrap
 * binds the wildcard address; this does what it does (load the configuration
 * directory, initialise the contexts) and then binds the Netty server itself.
 *
 *   java -cp 'lib/*:conf:classes' LoopbackProxy PORT CONF_DIR [ADDRESS]
 *
 * Prints "benchpress-proxy listening on ADDRESS:PORT" once the port is bound.
 */
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import java.lang.reflect.Method;
import org.apache.shardingsphere.proxy.config.ProxyConfigurationLoader;
import org.apache.shardingsphere.proxy.config.YamlProxyConfiguration;
import org.apache.shardingsphere.proxy.frontend.ShardingSphereProxy;
import org.apache.shardingsphere.proxy.initializer.BootstrapInitializer;

public final class LoopbackProxy {
    private LoopbackProxy() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: LoopbackProxy PORT CONF_DIR [ADDRESS]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        String conf = args[1];
        String address = args.length > 2 ? args[2] : "127.0.0.1";
        YamlProxyConfiguration config = ProxyConfigurationLoader.load(conf);
        new BootstrapInitializer().init(config, port);
        ShardingSphereProxy proxy = new ShardingSphereProxy();
        // The event loops and the channel pipeline are private in 5.1.0.
        Method groups = ShardingSphereProxy.class.getDeclaredMethod("createEventLoopGroup");
        groups.setAccessible(true);
        groups.invoke(proxy);
        Method init = ShardingSphereProxy.class.getDeclaredMethod("initServerBootstrap", ServerBootstrap.class);
        init.setAccessible(true);
        ServerBootstrap bootstrap = new ServerBootstrap();
        init.invoke(proxy, bootstrap);
        ChannelFuture bound = bootstrap.bind(address, port).sync();
        System.out.println("benchpress-proxy listening on " + address + ":" + port);
        System.out.flush();
        bound.channel().closeFuture().sync();
    }
}
