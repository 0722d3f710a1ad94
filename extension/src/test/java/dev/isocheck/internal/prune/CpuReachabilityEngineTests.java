package dev.isocheck.internal.prune;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CpuReachabilityEngineTests {

    private static final CpuReachabilityEngine DEFAULT = new CpuReachabilityEngine();

    @Test
    void sessionGraphsGetChainClocks() {
        // 24 chains cost 96 bytes a node; bit rows cost 2000 / 8 = 250.
        Dag dag = RandomDags.sessions(new Random(1), 2000, 24, 2, 100).dag();
        assertThat(DEFAULT.closureOf(dag)).isInstanceOf(ChainReachability.class);
    }

    @Test
    void wideGraphsGetBitRows() {
        // 500 isolated nodes are 500 chains: 2000 bytes a node against 64 of bit rows.
        Dag dag = RandomDags.random(new Random(1), 500, 0).dag();
        assertThat(DEFAULT.closureOf(dag)).isInstanceOf(BitRowReachability.class);
    }

    @Test
    void theChoiceComparesBytesAndArrayLimits() {
        // Equal at 32 chains a node (4 bytes each) against 8 bytes per 64 nodes: bit rows win ties.
        assertThat(CpuReachabilityEngine.prefersChains(6400, 199)).isTrue();
        assertThat(CpuReachabilityEngine.prefersChains(6400, 200)).isFalse();
        // 100k nodes: bit rows take 1.25 GB, but 20k chains' clocks 8 GB; 3,000 chains' 1.2 GB.
        assertThat(CpuReachabilityEngine.prefersChains(100_000, 20_000)).isFalse();
        assertThat(CpuReachabilityEngine.prefersChains(100_000, 3_000)).isTrue();
        // Bit rows beyond one array: chains, as long as the clocks fit in one.
        assertThat(CpuReachabilityEngine.prefersChains(400_000, 5000)).isTrue();
        assertThat(CpuReachabilityEngine.prefersChains(400_000, 6000)).isFalse();
    }

    @Test
    void largeWideGraphsGetTheSmallerBitRows() {
        // 70k nodes in some 17k chains (measured: 4.8 GB of clocks in 6.5 s, 0.6 GB of rows in 0.27 s).
        assertThat(CpuReachabilityEngine.prefersChains(70_000, 17_315)).isFalse();
    }

    @Test
    void namesAndAvailability() {
        assertThat(DEFAULT.name()).isEqualTo("cpu");
        assertThat(new ChainReachabilityEngine().name()).isEqualTo("cpu-chains");
        assertThat(new BitRowReachabilityEngine().name()).isEqualTo("cpu-bitrows");
        assertThat(DEFAULT.unavailableReason(10_000_000, 100_000_000)).isEmpty();
        assertThat(new BitRowReachabilityEngine().unavailableReason(100_000, 1_000_000)).isEmpty();
        assertThat(new BitRowReachabilityEngine().unavailableReason(400_000, 1_000_000))
                .hasValue("400000 nodes need 2500000000 words of bit rows, more than one array holds");
    }
}
