package dev.isocheck.examples.spring.mybatis;

import java.util.List;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** The rota's doctors, a MyBatis mapper. */
@Mapper
public interface DoctorMapper {

    /** The names of the doctors on call for {@code shift}. */
    @Select("SELECT name FROM doctor WHERE shift = #{shift} AND on_call ORDER BY name")
    List<String> onCall(int shift);

    /**
     * The same, their rows locked until the transaction ends: a second request waits here, and at
     * READ COMMITTED then reads the rows as the first one left them.
     */
    @Select("SELECT name FROM doctor WHERE shift = #{shift} AND on_call ORDER BY name FOR UPDATE")
    List<String> onCallForUpdate(int shift);

    /** Takes {@code name} off call. */
    @Update("UPDATE doctor SET on_call = FALSE WHERE name = #{name}")
    int goOffCall(String name);
}
