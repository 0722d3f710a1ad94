package dev.isocheck.examples.spring.mybatis;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** The stockroom's supplies, a MyBatis mapper (found by the starter's scan for {@code @Mapper}). */
@Mapper
public interface SupplyMapper {

    /** A supply's row: its key, its count and the version the optimistic update compares. */
    record Row(String sku, int onHand, long version) {
    }

    /** The row of {@code sku}, or {@code null}. */
    @Select("SELECT sku, on_hand, version FROM supply WHERE sku = #{sku}")
    Row find(String sku);

    /** Sets the count of {@code sku}. */
    @Update("UPDATE supply SET on_hand = #{onHand} WHERE sku = #{sku}")
    int setOnHand(@Param("sku") String sku, @Param("onHand") int onHand);

    /**
     * Sets the count of {@code sku} and bumps its version, provided the version is still
     * {@code version}: 0 rows when another request wrote the row since it was read.
     */
    @Update("UPDATE supply SET on_hand = #{onHand}, version = version + 1 WHERE sku = #{sku} AND version = #{version}")
    int setOnHandIfUnchanged(@Param("sku") String sku, @Param("onHand") int onHand, @Param("version") long version);
}
