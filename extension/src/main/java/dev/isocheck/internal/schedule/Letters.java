package dev.isocheck.internal.schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * The names of a run's threads in schedules: {@code A} to {@code Z} for the first 26, then
 * {@code T27}, {@code T28}, … An order is their concatenation ({@code ABAB}; with more threads,
 * {@code A B T27}, separated by spaces).
 */
final class Letters {

    private Letters() {
    }

    /** The letter of the thread created {@code index}-th (from 0). */
    static String of(int index) {
        return index < 26 ? String.valueOf((char) ('A' + index)) : "T" + (index + 1);
    }

    /** The index {@link #of(int)} gave {@code letter}, or -1. */
    static int indexOf(String letter) {
        if (letter.length() == 1 && letter.charAt(0) >= 'A' && letter.charAt(0) <= 'Z') {
            return letter.charAt(0) - 'A';
        }
        if (letter.startsWith("T") && letter.length() > 1 && letter.substring(1).chars().allMatch(Character::isDigit)) {
            return Integer.parseInt(letter.substring(1)) - 1;
        }
        return -1;
    }

    static int compare(String a, String b) {
        return Integer.compare(indexOf(a), indexOf(b));
    }

    /** An order written as {@link #join(List)} writes it, split into letters. */
    static List<String> split(String order) {
        List<String> letters = new ArrayList<>();
        String compact = order.strip();
        if (compact.contains(" ")) {
            for (String part : compact.split("\\s+")) {
                letters.add(part);
            }
            return letters;
        }
        for (int i = 0; i < compact.length(); i++) {
            letters.add(String.valueOf(compact.charAt(i)));
        }
        return letters;
    }

    /** The order of {@code letters}: concatenated, or with spaces once a letter is longer than one character. */
    static String join(List<String> letters) {
        boolean compact = letters.stream().allMatch(l -> l.length() == 1);
        return String.join(compact ? "" : " ", letters);
    }

    /** Whether {@code order} is one {@link #split(String)} reads: letters, or T-numbers separated by spaces. */
    static boolean valid(String order) {
        String compact = order.strip();
        return !compact.isEmpty() && split(compact).stream().allMatch(l -> indexOf(l) >= 0);
    }
}
