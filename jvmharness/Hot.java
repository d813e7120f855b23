// Hot is the tiny workload used to record HotSpot's tiered-policy decisions
// (PrintCompilation + PrintTieredEvents) that runtime/policy tests replay.
public class Hot {
    static int sink;

    // work is loop-free and not trivial (neither an accessor nor a
    // constant getter), so it takes the normal 0 -> 3 -> 4 path.
    static int work(int x) {
        int y = x * 31 + 7;
        y ^= y >>> 3;
        return y + (x & 5);
    }

    // loop is entered once and spins long enough for OSR at level 3 and 4.
    static int loop(int n) {
        int acc = 0;
        for (int k = 0; k < n; k++) {
            acc += k ^ (acc >>> 1);
        }
        return acc;
    }

    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        int iters = Integer.parseInt(args[1]);
        int s = 0;
        for (int c = 0; c < calls; c++) {
            s += work(c);
        }
        s += loop(iters);
        sink = s;
        System.out.println("done " + (s != 0));
    }
}
